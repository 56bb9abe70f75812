import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.ts'
import { formSubmissionsRepository } from '../store/form-submissions.ts'
import type { FormField } from '../slots/shared/records.ts'
import { formsRepository } from '../store/forms.ts'
import { profilesRepository } from '../store/profiles.ts'
import { slotsRepository } from '../store/slots.ts'
import { parseFormBody } from '../http/form-body.ts'
import { retryAfterSeconds, takeAddressLimit } from '../http/rate-limit.ts'
import { noticePage } from './not-found-page.ts'
import { fill, languageFromHeader, type Messages, messagesFor } from '../i18n/catalogue.ts'
import { sentTooFast } from './form-guard.ts'
import { pageLocale, renderProfilePage } from './page-renderer.ts'
import { pageSecurityHeaders } from './security-headers.ts'
import { pageStyle } from './theme.ts'

/** The form's own action: a segment no login can take (ARCHITECTURE, "One process, four faces"). */
const MAX_VALUE = 5000
const MAX_BODY = 64 * 1024
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export type SubmissionCheck = { ok: true; data: Record<string, string> } | { ok: false; errors: Record<string, string> }

/**
 * A submission against its form: required fields present, e-mails shaped, sizes bounded; other
 * names dropped. Problems are keyed by field name, in the page's words, to sit next to each field.
 */
export function checkSubmission(fields: FormField[], input: Record<string, unknown>, t: Messages = messagesFor('en')): SubmissionCheck {
  const data: Record<string, string> = {}
  const errors: Record<string, string> = {}
  for (const field of fields) {
    const value = fieldValue(input, field.name).trim()
    const label = field.label
    if (field.type === 'checkbox') {
      if (field.required && !value) errors[field.name] = fill(t.formTick, { label })
      data[field.name] = value ? 'yes' : 'no'
      continue
    }
    if (!value) {
      if (field.required) errors[field.name] = fill(t.formFillIn, { label })
      continue
    }
    if (value.length > MAX_VALUE) errors[field.name] = fill(t.formTooLong, { label, max: MAX_VALUE.toLocaleString() })
    else if (field.type === 'email' && !EMAIL.test(value)) errors[field.name] = fill(t.formEmail, { label })
    else data[field.name] = value
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, data }
}

const fieldValue = (input: Record<string, unknown>, name: string): string => {
  const raw = Object.hasOwn(input, name) ? input[name] : undefined
  return (Array.isArray(raw) ? raw[0] : typeof raw === 'string' ? raw : '').toString()
}

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
      const slot = Number.isSafeInteger(slotId) ? await slotsRepository.findById(ctx.db, slotId) : undefined
      const profile = slot?.type === 'form' ? await profilesRepository.findById(ctx.db, slot.profileId) : undefined
      const formId = Number((slot?.data as { formId?: unknown } | undefined)?.formId)
      const [form] = profile?.status ? await formsRepository.findManyOfUser(ctx.db, profile.userId, [formId]) : []
      if (!slot || !profile || !form) {
        const t = messagesFor(languageFromHeader(req.headers['accept-language']))
        return send(404, noticePage({ code: '404', title: t.formMissing, lines: [t.formMissingHint] }))
      }
      const back = `/${profile.login}`
      const { lang, t } = await pageLocale(ctx, profile)

      // A visitor may send a handful of forms a minute; more is a script.
      const verdict = await takeAddressLimit(ctx, req, 'forms')
      if (verdict && !verdict.allowed) {
        const seconds = retryAfterSeconds(verdict)
        reply.header('retry-after', seconds)
        return send(429, noticePage({ code: '429', title: t.formTooMany, lines: [fill(t.formWait, { seconds: seconds.toLocaleString(lang) })], back, backLabel: t.backToPage, lang }))
      }

      const input = (req.body ?? {}) as Record<string, unknown>
      /** The page again, this form open with the visitor's answers and each problem beside its field. */
      const showAgain = async (errors: Record<string, string>) => {
        const values = Object.fromEntries(form.fields.map((f) => [f.name, fieldValue(input, f.name).slice(0, MAX_VALUE)]))
        const html = await renderProfilePage(ctx, profile, { formState: { slotId: slot.id, values, errors } })
        return reply
          .code(422)
          .headers({ ...pageSecurityHeaders(ctx.config.publicUrl, pageStyle(profile.themeId).hash), 'cache-control': 'no-store' })
          .type('text/html; charset=utf-8')
          .send(html)
      }
      // Spam guard: the hidden field filled in, or sent sooner than a person could. Nothing is
      // stored, and a person (an over-eager autofill, a very fast typist) gets the form back
      // with their answers: one more click sends it.
      const trapped = fieldValue(input, '_hp').trim() !== ''
      if (trapped || sentTooFast(fieldValue(input, '_e'))) return showAgain({ _form: t.formResend })

      const checked = checkSubmission(form.fields, input, t)
      if (!checked.ok) return showAgain(checked.errors)
      await formSubmissionsRepository.insert(ctx.db, { formId: form.id, profileId: profile.id, slotId: slot.id, data: checked.data })
      return send(200, noticePage({ code: '✓', title: t.formThanks, lines: [fill(t.formSent, { form: form.title })], back, backLabel: t.backToPage, lang }))
    })
  })
}
