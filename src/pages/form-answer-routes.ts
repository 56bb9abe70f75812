import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.ts'
import { visitor } from '../core/use-cases.ts'
import { answersOf, checkSubmission, guardOf, type SubmittedBody, sentTooFast } from '../slots/shared/form-submission.ts'
import { slotTypeOf } from '../slots/registry.ts'
import { parseFormBody } from '../http/form-body.ts'
import { retryAfterSeconds, takeAddressLimit } from '../http/rate-limit-hooks.ts'
import { noticePage } from './not-found-page.ts'
import { fill, languageFromHeader, messagesFor } from '../i18n/catalogue.ts'
import { render } from '../core/use-cases.ts'
import { pageSecurityHeaders } from '../rendering/page-security-headers.ts'
import { pageStyle } from '../rendering/theme.ts'

const MAX_BODY = 64 * 1024

/**
 * `POST /-/forms/<slotId>`: what a form slot on a published page sends. Works without script:
 * the answer is a small page saying it was received (or what to fix) with a link back.
 */
export function installFormSubmissions(app: FastifyInstance, ctx: AppContext): void {
  app.register(async (scope) => {
    // Browsers post forms url-encoded; only this route accepts that encoding.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: MAX_BODY }, (_req, body, done) => {
      try {
        done(null, parseFormBody(body as Buffer))
      } catch (err) {
        done(err as Error, undefined)
      }
    })

    scope.post('/-/forms/:slotId', async (req, reply) => {
      const send = (status: number, page: { body: Buffer; headers: Record<string, string> }) =>
        reply.code(status).headers(page.headers).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page.body)

      if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        return send(415, noticePage({ code: '415', title: 'Send the form from its page', lines: ['This address takes form submissions only.'] }))
      }
      const slotId = Number((req.params as { slotId: string }).slotId)
      const slot = Number.isSafeInteger(slotId) ? await visitor.slot(ctx, slotId) : undefined
      // A slot takes submissions when it renders a form: its type module says which record it renders.
      const record = slot ? slotTypeOf(slot.type)?.record?.(slot.data as never) : undefined
      const formId = record?.kind === 'forms' ? record.id : undefined
      const profile = slot && formId !== undefined ? await visitor.pageById(ctx, slot.profileId) : undefined
      const [form] = profile?.status && formId !== undefined ? await visitor.formsOf(ctx, profile.userId, [formId]) : []
      // A form block off the page (hidden, or outside its window) takes no answers.
      if (!slot || !profile || !form || !(await visitor.isShownNow(ctx, profile, slot))) {
        const t = messagesFor(languageFromHeader(req.headers['accept-language']))
        return send(404, noticePage({ code: '404', title: t.formMissing, lines: [t.formMissingHint] }))
      }
      const back = `/${profile.login}`
      const { lang, t } = await render.locale(ctx, profile)

      // A visitor may send a handful of forms a minute; more is a script.
      const verdict = await takeAddressLimit(ctx, req, 'forms')
      if (verdict && !verdict.allowed) {
        const seconds = retryAfterSeconds(verdict)
        reply.header('retry-after', seconds)
        return send(
          429,
          noticePage({
            code: '429',
            title: t.formTooMany,
            lines: [fill(t.formWait, { seconds: seconds.toLocaleString(lang) })],
            back,
            backLabel: t.backToPage,
            lang,
          }),
        )
      }

      const input = (req.body ?? {}) as SubmittedBody
      /** The page again, this form open with the visitor's answers and each problem beside its field. */
      const showAgain = async (errors: Record<string, string>) => {
        const html = await render.page(ctx, profile, { formState: { slotId: slot.id, values: answersOf(form.fields, input), errors } })
        return reply
          .code(422)
          .headers({ ...pageSecurityHeaders(ctx.config.publicUrl, pageStyle(profile.themeId).hash), 'cache-control': 'no-store' })
          .type('text/html; charset=utf-8')
          .send(html)
      }
      // Spam guard: the hidden field filled in, or sent sooner than a person could. Nothing is
      // stored, and a person (an over-eager autofill, a very fast typist) gets the form back
      // with their answers: one more click sends it.
      const guard = guardOf(input)
      if (guard.trapped || sentTooFast(guard.elapsed)) return showAgain({ _form: t.formResend })

      const checked = checkSubmission(form.fields, input, t, lang)
      if (!checked.ok) return showAgain(checked.errors)
      await visitor.submitForm(ctx, profile, form, slot.id, checked.data)
      return send(200, noticePage({ code: '✓', title: t.formThanks, lines: [fill(t.formSent, { form: form.title })], back, backLabel: t.backToPage, lang }))
    })
  })
}
