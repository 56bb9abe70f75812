import { Type } from '@sinclair/typebox'
import { mdText } from './shared/markdown-text.ts'
import type { FormField, FormView } from './shared/records.ts'
import { lines, words } from './shared/render.ts'
import { strictObject, stringEnum, text } from './shared/schema.ts'
import { BUTTON_STYLE_LABELS, buttonStyle, customizeField, customStyleAttr, FormCustomize, normaliseCustomize } from './shared/style.ts'
import { SlotRuleError, defineSlotType } from './types.ts'

const asForm = (record: unknown) => (record && typeof record === 'object' && 'fields' in record ? (record as FormView) : undefined)

const VIEWS = ['inline', 'button'] as const

/** Lets browsers fill in what they know (WCAG 1.3.5, identify input purpose). */
const AUTOCOMPLETE: Partial<Record<FormField['type'], string>> = { email: 'email', tel: 'tel' }

export default defineSlotType({
  type: 'form',
  title: 'Form',
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
    const summary = state
      ? r.h`<p class="slot-form-summary" role="alert"><strong>${t.formCheck}</strong>${state.errors._form ? r.h` ${state.errors._form}` : ''}</p>`
      : ''
    // Spam guard: a field people never see (bots fill every input), and `_e`, which the page
    // script fills with how long the page was open (bots post at once).
    const guard = r.h`<div class="slot-form-hp" aria-hidden="true"><label for="slot-${s.id}-hp">${t.formHoneypot}</label><input type="text" id="slot-${s.id}-hp" name="_hp" tabindex="-1" autocomplete="off"></div><input type="hidden" name="_e" value="">`
    // The fragment brings a re-shown page (problems to fix) straight back to this form.
    const action = r.formAction ? r.h` action="${`${r.formAction(s.id)}#slot-${s.id}`}"` : ''
    const form = r.h`<form class="slot-form-body${framed && view === 'inline' ? ' framed' : ''}" method="post"${action}><input type="hidden" name="slotId" value="${s.id}"><h2>${f.title}</h2>${
      f.description ? r.h`<p>${lines(r, f.description)}</p>` : ''
    }${summary}${fields}${guard}<button type="submit" class="style-${style}">${f.submitLabel || t.formSend}</button></form>`
    if (view === 'inline') return r.h`<section class="slot slot-form">${form}</section>`
    const css = style === 'custom' ? customStyleAttr(customize) : ''
    return r.h`<section class="slot slot-form"><details class="slot-form-toggle"${state ? r.h` open` : ''}><summary class="slot-form-button style-${style}"${css ? r.h` style="${css}"` : ''}>${buttonText || f.title}</summary>${form}</details></section>`
  },

  markdown(s, record) {
    const f = asForm(record)
    if (!f) return `_(form ${s.data.formId} is no longer available)_`
    const fields = f.fields.map((field) => `- ${mdText(field.label)} (${field.type}${field.required ? ', required' : ''})`)
    const title = mdText(f.title)
    const intro = s.data.view === 'button' ? `Form behind a button "${mdText(s.data.buttonText || f.title)}": **${title}**` : `Form: **${title}**`
    return [intro, mdText(f.description), fields.join('\n'), `Submit: ${mdText(f.submitLabel || 'Send')}`].filter(Boolean).join('\n')
  },
})
