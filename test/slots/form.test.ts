import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { slotService } from '../../src/slots/slot-service.ts'
import form from '../../src/slots/form.ts'
import { BUTTON_STYLES } from '../../src/slots/shared/style.ts'
import { formsRepository } from '../../src/store/forms.ts'
import { STORE } from '../helpers/app.ts'
import {
  accepted,
  assertInvalidRefused,
  assertValidAccepted,
  customizeOnlyWhenCustom,
  plainWords,
  refusedKeys,
  renderContext,
  useSlotApi,
} from '../helpers/slots.ts'

const validForm = fc
  .record(
    {
      formId: fc.integer({ min: 1, max: 10_000 }),
      view: fc.constantFrom('inline', 'button'),
      framed: fc.boolean(),
      buttonText: plainWords(120),
      style: fc.constantFrom(...BUTTON_STYLES),
      customize: fc.record({ backgroundColor: fc.constantFrom('#fff', 'navy'), borderRadius: fc.integer({ min: 0, max: 50 }) }, { requiredKeys: [] }),
    },
    { requiredKeys: ['formId'] },
  )
  .map(customizeOnlyWhenCustom)
const withDefaults = (d: Record<string, unknown>) => ({
  view: 'inline',
  framed: true,
  buttonText: '',
  style: 'primary',
  ...d,
  customize: d.style === 'custom' ? { backgroundColor: '#424248', textColor: '#FFFFFF', borderRadius: 12, ...(d.customize as object) } : null,
})
const r = renderContext

describe(`form slots (${STORE})`, () => {
  const api = useSlotApi('form')
  const contact = () =>
    formsRepository.insert(api.t.ctx.db, {
      userId: api.user.id,
      title: 'Say hello',
      description: 'I answer within a day.',
      fields: [
        { name: 'name', label: 'Your name', type: 'text', required: true },
        { name: 'email', label: 'E-mail', type: 'email', required: true },
        { name: 'message', label: 'Message', type: 'textarea', required: false },
      ],
      submitLabel: 'Send',
    })

  it('is described as not writable, and refuses creation and PATCH', async () => {
    assert.equal(form.writable, false)
    const f = await contact()
    assert.equal((await api.t.request('POST', api.base, { token: api.token, body: { type: 'form', data: { formId: f.id } } })).status, 422)
    const batch = await api.t.request('POST', `${api.base}/batch`, { token: api.token, body: { slots: [{ type: 'form', data: { formId: f.id } }] } })
    assert.deepEqual([batch.status, batch.body.code], [409, 'read_only'])
    const [slot] = await slotService.appendManaged(api.t.ctx.db, api.profile, [{ type: 'form', data: { formId: f.id } }])
    const patch = await api.t.request('PATCH', `${api.base}/${slot.id}`, { token: api.token, body: { data: { view: 'button' } } })
    assert.deepEqual([patch.status, patch.body.code], [409, 'read_only'])
  })

  it('reads back with the defaults of view, framed, buttonText, style and customize', async () => {
    const f = await contact()
    const [slot] = await slotService.appendManaged(api.t.ctx.db, api.profile, [{ type: 'form', data: { formId: f.id } }])
    const read = await api.t.request('GET', `${api.base}/${slot.id}`, { token: api.token })
    assert.deepEqual(read.body.data.data, { formId: f.id, view: 'inline', framed: true, buttonText: '', style: 'primary', customize: null })
  })

  it('follows the button rule for customize: required for custom, null otherwise', () => {
    assert.deepEqual(refusedKeys('form', { formId: 1, style: 'custom' }), ['data.customize'])
    assert.equal(accepted('form', { formId: 1, style: 'light', customize: {} }).customize, null)
    assert.deepEqual(refusedKeys('form', { formId: 1, style: 'custom', customize: { subtitleColor: '#fff' } }), ['data.customize.subtitleColor'])
  })

  it('renders its record inline as a form posted to the page, or behind a button', async () => {
    const f = await contact()
    const inline = form.html({ id: 11, type: 'form', data: withDefaults({ formId: f.id }) as any, computed: {} }, r(f)).html
    assert.match(inline, /<form class="slot-form-body framed" method="post"><input type="hidden" name="slotId" value="11"><h2>Say hello<\/h2>/)
    assert.match(
      inline,
      /<label for="slot-11-email">E-mail <span class="slot-form-required">\(required\)<\/span><\/label><input type="email" id="slot-11-email" name="email" autocomplete="email" required>/,
    )
    const button = form.html(
      { id: 11, type: 'form', data: withDefaults({ formId: f.id, view: 'button', buttonText: 'Write to me' }) as any, computed: {} },
      r(f),
    ).html
    assert.match(button, /<details class="slot-form-toggle"><summary class="slot-form-button style-primary">Write to me<\/summary><form class="slot-form-body"/)
    assert.match(form.markdown({ id: 11, type: 'form', data: withDefaults({ formId: f.id }) as any, computed: {} }, f), /^Form: \*\*Say hello\*\*/)
  })

  it('says the form is unavailable when its record is gone', () => {
    assert.match(form.html({ id: 1, type: 'form', data: withDefaults({ formId: 99 }) as any, computed: {} }, r()).html, /no longer available/)
  })

  it('accepts generated valid data and reads it back as written plus defaults (property)', () => {
    assertValidAccepted('form', validForm, withDefaults)
  })

  it('refuses generated invalid data naming every offending key (property)', () => {
    assertInvalidRefused('form', validForm)
  })
})
