/**
 * What a visitor may send through a form slot, and how it is checked: the form slot renders
 * these fields (src/slots/form.ts) and the page's submission route reads them back.
 */

import type { Messages } from '../../i18n/catalogue.ts'
import en from '../../i18n/messages/en.ts'
import type { FormField } from '../../kernel/slot-records.ts'
import { say } from './render.ts'

/** The longest answer one field takes. */
export const MAX_ANSWER = 5000
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * The spam guard's fields, sent beside the form's own: a trap people never see (bots fill every
 * input), and how long the page was open when the form was sent (written by the form's script).
 */
export const GUARD_FIELDS = Object.freeze({ trap: '_hp', elapsed: '_e' })

/** A url-encoded body as parsed: a name sent twice arrives as an array. */
export type SubmittedBody = Record<string, unknown>

/** What was sent under `name`, as one string: the first of repeated values, '' when absent. */
export function submittedValue(input: SubmittedBody, name: string): string {
  const raw = Object.hasOwn(input, name) ? input[name] : undefined
  return (Array.isArray(raw) ? raw[0] : typeof raw === 'string' ? raw : '').toString()
}

export type SubmissionCheck = { ok: true; data: Record<string, string> } | { ok: false; errors: Record<string, string> }

/**
 * A submission against its form: required fields present, e-mails shaped, sizes bounded; other
 * names dropped. Problems are keyed by field name, in the page's words, to sit next to each field.
 */
export function checkSubmission(fields: FormField[], input: SubmittedBody, t: Messages = en, lang = 'en'): SubmissionCheck {
  const data: Record<string, string> = {}
  const errors: Record<string, string> = {}
  for (const field of fields) {
    const value = submittedValue(input, field.name).trim()
    const label = field.label
    if (field.type === 'checkbox') {
      if (field.required && !value) errors[field.name] = say(t.formTick, { label })
      data[field.name] = value ? 'yes' : 'no'
      continue
    }
    if (!value) {
      if (field.required) errors[field.name] = say(t.formFillIn, { label })
      continue
    }
    if (value.length > MAX_ANSWER) errors[field.name] = say(t.formTooLong, { label, max: MAX_ANSWER.toLocaleString(lang) })
    else if (field.type === 'email' && !EMAIL.test(value)) errors[field.name] = say(t.formEmail, { label })
    else data[field.name] = value
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, data }
}

/** The visitor's answers as a refused form shows them again: each field's, cut to what a field takes. */
export const answersOf = (fields: FormField[], input: SubmittedBody): Record<string, string> =>
  Object.fromEntries(fields.map((f) => [f.name, submittedValue(input, f.name).slice(0, MAX_ANSWER)]))

/** The spam guard's fields as sent: whether the trap was filled in, and the elapsed time as written ('' without script). */
export const guardOf = (input: SubmittedBody): { trapped: boolean; elapsed: string } => ({
  trapped: submittedValue(input, GUARD_FIELDS.trap).trim() !== '',
  elapsed: submittedValue(input, GUARD_FIELDS.elapsed),
})

/** People take longer than this to fill in even one field; scripts post at once. */
export const MIN_FILL_MS = 2000

/**
 * The time check of the spam guard. The page's script writes into the hidden `_e` field how long
 * the page had been open when the form was sent (a render-time stamp in the HTML would make every
 * render differ, and cached pages and ETags depend on renders being equal). Without script the
 * field stays empty and the submission passes: the hidden trap field still guards it, and a
 * person is never refused for having script off.
 */
export function sentTooFast(elapsed: string): boolean {
  if (!/^\d{1,12}$/.test(elapsed)) return false
  return Number(elapsed) < MIN_FILL_MS
}

/** The slot type whose submissions are kept (leads): its readers outside src/slots name it by this. */
export const FORM_SLOT_TYPE = 'form' as const
