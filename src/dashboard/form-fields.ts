import { plainMessage } from './plain-words.ts'
import { AppError, type FieldErrors } from '../kernel/errors.ts'
import { renderNextSteps } from '../kernel/next-step.ts'
import { dashboardNextSteps } from './page-next-steps.ts'
import { h, raw, type SafeHtml } from '../slots/shared/html.ts'
import { csrfField } from './layout.ts'

export interface FieldOptions {
  name: string
  label: string
  type?: 'text' | 'email' | 'password' | 'search'
  value?: string
  errors?: FieldErrors
  autocomplete?: string
  required?: boolean
  hint?: string
  /** Extra attributes we write ourselves (data-*, maxlength), already safe. */
  attrs?: SafeHtml
  /** A live status line under the field (filled by script), announced politely. */
  status?: boolean
}

/**
 * A labelled input with its hint and its error right below it; the error is tied to the input
 * (aria-describedby, aria-invalid) so screen readers read it with the field.
 */
export function field(f: FieldOptions): SafeHtml {
  const id = `f-${f.name}`
  const problems = f.errors?.[f.name] ?? []
  const described = [f.hint ? `${id}-hint` : '', problems.length ? `${id}-error` : '', f.status ? `${id}-status` : ''].filter(Boolean).join(' ')
  return h`<div class="field">
<label for="${id}">${f.label}</label>
<input id="${id}" name="${f.name}" type="${f.type ?? 'text'}" value="${f.type === 'password' ? '' : (f.value ?? '')}"${f.autocomplete ? h` autocomplete="${f.autocomplete}"` : ''}${f.required ? raw(' required') : ''}${problems.length ? raw(' aria-invalid="true"') : ''}${described ? h` aria-describedby="${described}"` : ''}${f.attrs ? h` ${f.attrs}` : ''}>
${f.hint ? h`<p class="hint" id="${id}-hint">${f.hint}</p>` : ''}${problems.length ? h`<p class="error" id="${id}-error">${problems.join(' ')}</p>` : ''}${f.status ? h`<p class="hint" id="${id}-status" aria-live="polite"></p>` : ''}
</div>`
}

const zones = (() => {
  const list = Intl.supportedValuesOf('timeZone')
  return list.includes('UTC') ? list : ['UTC', ...list]
})()

/**
 * Every IANA time zone. With `fromBrowser` the page's script moves the choice to the
 * browser's zone (without script the visitor picks; UTC is preselected).
 */
export function timeZoneSelect(o: { name: string; label: string; value: string; errors?: FieldErrors; fromBrowser?: boolean }): SafeHtml {
  const id = `f-${o.name}`
  const problems = o.errors?.[o.name] ?? []
  return h`<div class="field">
<label for="${id}">${o.label}</label>
<select id="${id}" name="${o.name}"${o.fromBrowser ? raw(' data-browser-zone') : ''}${problems.length ? h` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
${zones.map((z) => h`<option${z === o.value ? raw(' selected') : ''}>${z}</option>`)}
</select>
${problems.length ? h`<p class="error" id="${id}-error">${problems.join(' ')}</p>` : ''}
</div>`
}

/** A summary at the top of a refused form, for those who do not see the field errors first. */
export function errorSummary(errors: FieldErrors | undefined): SafeHtml | '' {
  if (!errors || !Object.keys(errors).length) return ''
  const n = Object.keys(errors).length
  return h`<p class="notice bad" role="alert">${n === 1 ? 'One field needs attention.' : `${n} fields need attention.`} Nothing was saved.</p>`
}

export interface FormCardOptions {
  /** Names the heading: `${id}-h`. */
  id: string
  title: string
  /** What to know before sending (a warning, a limit), above the form. */
  intro?: SafeHtml | ''
  action: string
  csrf: string
  /** Refused fields; a summary heads the form. */
  errors?: FieldErrors
  fields: SafeHtml[]
  submit: string
  /** A destructive form: a red card and button. */
  danger?: boolean
  /** A class for a bar around the submit button (the theme picker keeps it in sight). */
  submitBar?: string
}

const submitBar = (button: SafeHtml, bar: string | undefined) => (bar ? h`<div class="${bar}">${button}</div>` : button)

/** A card holding one POST form: heading, intro, error summary, the fields and one submit button. */
export function formCard(o: FormCardOptions): SafeHtml {
  return h`<section class="card${o.danger ? ' danger-zone' : ''}" aria-labelledby="${o.id}-h">
<h2 id="${o.id}-h">${o.title}</h2>
${o.intro ?? ''}${errorSummary(o.errors)}<form method="post" action="${o.action}" novalidate>
${csrfField(o.csrf)}
${o.fields.map((f) => h`${f}\n`)}${submitBar(h`<button type="submit"${o.danger ? raw(' class="danger"') : ''}>${o.submit}</button>`, o.submitBar)}
</form>
</section>`
}

/** The field errors of a 422 from a service, with keys renamed to this form's fields; other errors pass. */
export function fieldErrorsOf(err: unknown, rename: Record<string, string> = {}): FieldErrors {
  if (!(err instanceof AppError) || err.code !== 'validation_failed' || !err.errors) throw err
  const out: FieldErrors = {}
  for (const [key, messages] of Object.entries(err.errors)) {
    const k = rename[key] ?? key
    out[k] = [...(out[k] ?? []), ...messages.map((m) => plainMessage(renderNextSteps(m, dashboardNextSteps)))]
  }
  return out
}
