import { Type } from '@sinclair/typebox'
import { lines } from './shared/render.ts'
import { strictObject, stringEnum, text } from './shared/schema.ts'
import { BUTTON_STYLE_LABELS, buttonStyle, customizeField, customStyleAttr, FormCustomize, normaliseCustomize } from './shared/style.ts'
import { SlotRuleError, defineSlotType } from './types.ts'

/** One input of a form (the dashboard's forms table). */
export interface FormFieldView {
  name: string
  label: string
  type: 'text' | 'email' | 'tel' | 'textarea' | 'checkbox'
  required: boolean
}

/** What a form slot shows of its form. */
export interface FormView {
  id: number
  title: string
  description: string
  fields: FormFieldView[]
  submitLabel: string
}

const asForm = (record: unknown) => (record && typeof record === 'object' && 'fields' in record ? (record as FormView) : undefined)

const VIEWS = ['inline', 'button'] as const

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
  record: (d) => ({ kind: 'form', id: d.formId }),

  html(s, r) {
    const f = asForm(r.record)
    if (!f) return r.h`<section class="slot slot-form slot-unavailable"><p>This form is no longer available.</p></section>`
    const { view, framed, buttonText, style, customize } = s.data
    const fields = f.fields.map((field) => {
      const id = `slot-${s.id}-${field.name}`
      const required = field.required ? r.h` required` : ''
      if (field.type === 'checkbox') {
        return r.h`<p class="slot-form-field"><input type="checkbox" id="${id}" name="${field.name}" value="yes"${required}> <label for="${id}">${field.label}</label></p>`
      }
      const input =
        field.type === 'textarea'
          ? r.h`<textarea id="${id}" name="${field.name}" rows="4"${required}></textarea>`
          : r.h`<input type="${field.type}" id="${id}" name="${field.name}"${required}>`
      return r.h`<p class="slot-form-field"><label for="${id}">${field.label}</label>${input}</p>`
    })
    const action = r.formAction ? r.h` action="${r.formAction(s.id)}"` : ''
    const form = r.h`<form class="slot-form-body${framed && view === 'inline' ? ' framed' : ''}" method="post"${action}><input type="hidden" name="slotId" value="${s.id}"><h2>${f.title}</h2>${
      f.description ? r.h`<p>${lines(r, f.description)}</p>` : ''
    }${fields}<button type="submit" class="style-${style}">${f.submitLabel || 'Send'}</button></form>`
    if (view === 'inline') return r.h`<section class="slot slot-form">${form}</section>`
    const css = style === 'custom' ? customStyleAttr(customize) : ''
    return r.h`<section class="slot slot-form"><details class="slot-form-toggle"><summary class="slot-form-button style-${style}"${css ? r.h` style="${css}"` : ''}>${buttonText || f.title}</summary>${form}</details></section>`
  },

  markdown(s, record) {
    const f = asForm(record)
    if (!f) return `_(form ${s.data.formId} is no longer available)_`
    const fields = f.fields.map((field) => `- ${field.label} (${field.type}${field.required ? ', required' : ''})`)
    const intro = s.data.view === 'button' ? `Form behind a button "${s.data.buttonText || f.title}": **${f.title}**` : `Form: **${f.title}**`
    return [intro, f.description, fields.join('\n'), `Submit: ${f.submitLabel || 'Send'}`].filter(Boolean).join('\n')
  },
})
