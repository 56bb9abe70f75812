import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.ts'
import { formSubmissionsRepository } from '../store/form-submissions.ts'
import { type FormField, formsRepository } from '../store/forms.ts'
import { profilesRepository } from '../store/profiles.ts'
import { slotsRepository } from '../store/slots.ts'
import { noticePage } from './not-found-page.ts'

/** The form's own action: a segment no login can take (ARCHITECTURE, "One process, four faces"). */
export const formActionPath = (slotId: number) => `/-/forms/${slotId}`

const MAX_VALUE = 5000
const MAX_BODY = 64 * 1024
// A visitor may send a handful of forms a minute; more is a script.
const PER_ADDRESS_PER_MINUTE = 10
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export type SubmissionCheck = { ok: true; data: Record<string, string> } | { ok: false; problems: string[] }

/** A submission against its form: required fields present, e-mails shaped, sizes bounded; other names dropped. */
export function checkSubmission(fields: FormField[], input: Record<string, unknown>): SubmissionCheck {
  const data: Record<string, string> = {}
  const problems: string[] = []
  for (const field of fields) {
    const raw = input[field.name]
    const value = (Array.isArray(raw) ? raw[0] : typeof raw === 'string' ? raw : '').toString().trim()
    if (field.type === 'checkbox') {
      if (field.required && !value) problems.push(`Tick “${field.label}”.`)
      data[field.name] = value ? 'yes' : 'no'
      continue
    }
    if (!value) {
      if (field.required) problems.push(`Fill in “${field.label}”.`)
      continue
    }
    if (value.length > MAX_VALUE) problems.push(`“${field.label}” is longer than ${MAX_VALUE} characters.`)
    else if (field.type === 'email' && !EMAIL.test(value)) problems.push(`“${field.label}” must be an e-mail address.`)
    else data[field.name] = value
  }
  return problems.length ? { ok: false, problems } : { ok: true, data }
}

/**
 * `POST /-/forms/<slotId>`: what a form slot on a published page sends. Works without script:
 * the answer is a small page saying it was received (or what to fix) with a link back.
 */
export function installFormSubmissions(app: FastifyInstance, ctx: AppContext): void {
  app.register(async (scope) => {
    // Browsers post forms url-encoded; only this route accepts that encoding.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MAX_BODY }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))))
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
        return send(404, noticePage({ code: '404', title: 'This form does not exist', lines: ['It may have been removed from the page.'] }))
      }
      const back = `/${profile.login}`

      const hit = await ctx.rateLimiter.hit(`form:${req.ip}`, 60_000)
      if (hit.count > PER_ADDRESS_PER_MINUTE) {
        reply.header('retry-after', Math.ceil(hit.resetMs / 1000))
        return send(429, noticePage({ code: '429', title: 'Too many submissions', lines: ['Wait a minute, then send the form again.'], back }))
      }

      const checked = checkSubmission(form.fields, (req.body ?? {}) as Record<string, unknown>)
      if (!checked.ok) {
        return send(422, noticePage({ code: '!', title: 'Please check the form', lines: checked.problems, back, backLabel: 'Back to the form' }))
      }
      await formSubmissionsRepository.insert(ctx.db, { formId: form.id, profileId: profile.id, slotId: slot.id, data: checked.data })
      return send(200, noticePage({ code: '✓', title: 'Thank you', lines: [`“${form.title}” was sent.`], back }))
    })
  })
}
