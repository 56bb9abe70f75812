import { Type } from '@sinclair/typebox'
import { card, RECORD_GONE_CSS } from './shared/block-css.ts'
import { GUARD_FIELDS } from './shared/form-submission.ts'
import { mdText } from './shared/markdown-text.ts'
import type { FormField, FormView } from '../kernel/slot-records.ts'
import { lines, words } from './shared/render.ts'
import { strictObject, stringEnum, text } from './shared/schema-parts.ts'
import {
  BUTTON_CSS,
  BUTTON_STYLE_LABELS,
  CUSTOMIZE_WORDS,
  buttonStyle,
  customizeField,
  customStyleAttr,
  FormCustomize,
  normaliseCustomize,
} from './shared/style.ts'
import { SlotRuleError, defineSlotType } from './types.ts'

const asForm = (record: unknown) => (record && typeof record === 'object' && 'fields' in record ? (record as FormView) : undefined)

const VIEWS = ['inline', 'button'] as const

/** Lets browsers fill in what they know (WCAG 1.3.5, identify input purpose). */
const AUTOCOMPLETE: Partial<Record<FormField['type'], string>> = { email: 'email', tel: 'tel' }

export default defineSlotType({
  type: 'form',
  title: 'Form',
  blurb: 'A short form visitors fill in to write to you or sign up.',
  glyph: 'M5 3h14v18H5zM8 8h8M8 12h8M8 16h4',
  description:
    'A contact or sign-up form built in the dashboard, shown inline or behind a button. Read-only through the API (see `writable`): ' +
    'form slots can be read, deleted and reordered. data.formId names the form; `view` inline or button; `framed` draws a frame ' +
    'around an inline form; `buttonText` labels the button view; `style`/`customize` colour the button as for button slots.',
  writable: false,
  schema: strictObject({
    formId: Type.Integer({ minimum: 1, description: 'Id of the linked form.' }),
    view: stringEnum(VIEWS, { default: 'inline', description: 'inline: the form on the page; button: a button that opens it.' }),
    framed: Type.Boolean({ default: true, description: 'Draw a frame around an inline form.' }),
    buttonText: text(120, 'Label of the button when view is button (the form title when empty).'),
    style: buttonStyle('Colour style of the button.'),
    customize: customizeField(FormCustomize),
  }),
  computed: strictObject({}),
  fieldWords: {
    view: { hint: 'Show the questions on the page, or a button that opens them.' },
    framed: { hint: 'Draws a frame around the questions when they are on the page.' },
    buttonText: { hint: 'The words on the button that opens the form. Empty: the form’s title.' },
    style: { hint: 'The button’s colours. Custom lets you choose your own below.' },
    ...CUSTOMIZE_WORDS,
  },
  enumLabels: { view: { inline: 'Inline on the page', button: 'Behind a button' }, style: BUTTON_STYLE_LABELS },
  example: { formId: 1, view: 'inline', framed: true, buttonText: '', style: 'primary', customize: null },

  normalise(d) {
    const { customize, errors } = normaliseCustomize(d.style, d.customize)
    if (Object.keys(errors).length) throw new SlotRuleError(errors)
    return { ...d, customize }
  },
  compute: () => ({}),
  reportTitle: (d) => d.buttonText,
  record: (d) => ({ kind: 'forms', id: d.formId }),

  html(s, r) {
    const t = words(r)
    const f = asForm(r.record)
    if (!f) return r.h`<section class="slot slot-form slot-unavailable"><p>${t.formGone}</p></section>`
    const { view, framed, buttonText, style, customize } = s.data
    // A refused submission comes back with the visitor's values and each problem by its field.
    const state = r.formState?.slotId === s.id ? r.formState : undefined
    const fields = f.fields.map((field) => {
      const id = `slot-${s.id}-${field.name}`
      const error = state?.errors[field.name]
      const value = state?.values[field.name] ?? ''
      const attrs = r.h`${field.required ? r.h` required` : ''}${error ? r.h` aria-invalid="true" aria-describedby="${id}-error"` : ''}`
      const label = r.h`<label for="${id}">${field.label}${field.required ? r.h` <span class="slot-form-required">(${t.formRequired})</span>` : ''}</label>`
      const problem = error ? r.h`<span class="slot-form-error" id="${id}-error">${error}</span>` : ''
      if (field.type === 'checkbox') {
        return r.h`<div class="slot-form-field slot-form-check"><input type="checkbox" id="${id}" name="${field.name}" value="yes"${value === 'yes' ? r.h` checked` : ''}${attrs}> ${label}${problem}</div>`
      }
      const input =
        field.type === 'textarea'
          ? r.h`<textarea id="${id}" name="${field.name}" rows="4"${attrs}>${value}</textarea>`
          : r.h`<input type="${field.type}" id="${id}" name="${field.name}"${value ? r.h` value="${value}"` : ''}${AUTOCOMPLETE[field.type] ? r.h` autocomplete="${AUTOCOMPLETE[field.type]}"` : ''}${attrs}>`
      return r.h`<div class="slot-form-field">${label}${input}${problem}</div>`
    })
    // A problem of the whole form alone (sent too fast) says just what to do: no field to check.
    const fieldProblems = state ? Object.keys(state.errors).some((k) => k !== '_form') : false
    const summary = state
      ? fieldProblems || !state.errors._form
        ? r.h`<p class="slot-form-summary" role="alert"><strong>${t.formCheck}</strong>${state.errors._form ? r.h` ${state.errors._form}` : ''}</p>`
        : r.h`<p class="slot-form-summary" role="alert"><strong>${state.errors._form}</strong></p>`
      : ''
    // Spam guard: a field people never see (bots fill every input), and one the script below
    // fills with how long the page was open (bots post at once).
    const guard = r.h`<div class="slot-form-hp" aria-hidden="true"><label for="slot-${s.id}-hp">${t.formHoneypot}</label><input type="text" id="slot-${s.id}-hp" name="${GUARD_FIELDS.trap}" tabindex="-1" autocomplete="off"></div><input type="hidden" name="${GUARD_FIELDS.elapsed}" value="">`
    // The fragment brings a re-shown page (problems to fix) straight back to this form.
    const action = r.formAction ? r.h` action="${`${r.formAction(s.id)}#slot-${s.id}`}"` : ''
    // The style colours every button of the form: the submit button, and the one that opens it.
    const css = style === 'custom' ? customStyleAttr(customize) : ''
    const colours = css ? r.h` style="${css}"` : ''
    const form = r.h`<form class="slot-form-body${framed && view === 'inline' ? ' framed' : ''}" method="post"${action}><input type="hidden" name="slotId" value="${s.id}"><h2>${f.title}</h2>${
      f.description ? r.h`<p>${lines(r, f.description)}</p>` : ''
    }${summary}${fields}${guard}<button type="submit" class="slot-form-submit style-${style}"${colours}>${f.submitLabel || t.formSend}</button></form>`
    if (view === 'inline') return r.h`<section class="slot slot-form">${form}</section>`
    return r.h`<section class="slot slot-form"><details class="slot-form-toggle"${state ? r.h` open` : ''}><summary class="slot-form-button style-${style}"${colours}>${buttonText || f.title}</summary>${form}</details></section>`
  },

  markdown(s, record) {
    const f = asForm(record)
    if (!f) return `_(form ${s.data.formId} is no longer available)_`
    const fields = f.fields.map((field) => `- ${mdText(field.label)} (${field.type}${field.required ? ', required' : ''})`)
    const title = mdText(f.title)
    const intro = s.data.view === 'button' ? `Form behind a button "${mdText(s.data.buttonText || f.title)}": **${title}**` : `Form: **${title}**`
    return [intro, mdText(f.description), fields.join('\n'), `Submit: ${mdText(f.submitLabel || 'Send')}`].filter(Boolean).join('\n')
  },

  css: [
    BUTTON_CSS,
    RECORD_GONE_CSS,
    card('.slot-form-body'),
    `/* Relative: the spam guard's trap is placed against the form. */
.slot-form-body {
  position: relative;
  display: flex;
  flex-direction: column;
  gap: 10px;
}
.slot-form .slot-form-body h2,
.slot-form .slot-form-body > p {
  margin: 0;
}
.slot-form-body.framed {
  border: 1px solid var(--line);
}
.slot-form-field {
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin: 0;
  font-size: 0.9375rem;
}
.slot-form-field label {
  font-weight: 600;
}
.slot-form-field input:not([type="checkbox"]),
.slot-form-field textarea {
  width: 100%;
  padding: 10px 12px;
  border: 1px solid var(--field-border);
  border-radius: min(var(--btn-radius), 12px);
  background: var(--field);
  color: inherit;
  font: inherit;
}
.slot-form-check {
  flex-direction: row;
  flex-wrap: wrap;
  align-items: center;
}
.slot-form-required {
  font-weight: 400;
  color: var(--muted);
}
.slot-form-error {
  font-weight: 600;
  color: var(--error);
}
.slot-form-error::before {
  content: "⚠ ";
}
.slot-form-check .slot-form-error {
  flex-basis: 100%;
}
.slot-form-field [aria-invalid="true"] {
  border-color: var(--error);
  border-width: 2px;
}
.slot-form-summary {
  margin: 0;
  padding: 10px 12px;
  border-inline-start: 4px solid var(--error);
  border-radius: 6px;
  background: var(--subtle);
}
/* The spam guard's trap: out of sight and out of the tab order; bots fill it, people never see it. */
.slot-form-hp {
  position: absolute;
  left: -10000px;
  width: 1px;
  height: 1px;
  overflow: hidden;
}
.slot-form-toggle > summary {
  list-style: none;
}
.slot-form-toggle > summary::-webkit-details-marker {
  display: none;
}
.slot-form-toggle[open] > .slot-form-body {
  margin-top: 10px;
}`,
  ],

  // The spam guard's time check (shared/form-submission.ts, sentTooFast): written when the form is sent, as a
  // stamp in the HTML would make every render differ (cached pages and ETags need them equal).
  script: `
document.addEventListener('submit', (event) => {
  const elapsed = event.target instanceof HTMLFormElement ? event.target.elements.namedItem('${GUARD_FIELDS.elapsed}') : null
  if (elapsed instanceof HTMLInputElement) elapsed.value = String(Math.round(performance.now()))
})`,
})
