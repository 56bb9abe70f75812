import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import faq from '../../src/slots/faq.ts'
import { STORE } from '../helpers/app.ts'
import {
  accepted,
  assertInvalidOverHttp,
  assertInvalidRefused,
  assertRoundTripOverHttp,
  assertValidAccepted,
  plainWords,
  refusedKeys,
  renderContext,
  useSlotApi,
} from '../helpers/slots.ts'

const row = fc.record({ id: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), title: plainWords(300, 1), text: plainWords(5000, 1) })
const validFaq = fc.record(
  {
    title: plainWords(200),
    faqStyle: fc.constantFrom('border-faq', 'plain-faq'),
    items: fc.uniqueArray(row, { minLength: 1, maxLength: 50, selector: (r) => r.id }),
  },
  { requiredKeys: ['items'] },
)
const withDefaults = (d: Record<string, any>) => ({ title: '', faqStyle: 'border-faq', ...d, items: d.items.map((i: object) => ({ ...i })) })
const r = renderContext()

describe(`faq slots (${STORE})`, () => {
  const api = useSlotApi('faq')
  const { create } = api

  it('generates ids for rows sent without one, unique beside the ids sent', async () => {
    const res = await create({
      items: [
        { title: 'A?', text: 'a' },
        { id: 'q1', title: 'B?', text: 'b' },
        { title: 'C?', text: 'c' },
      ],
    })
    assert.equal(res.status, 201)
    const ids = res.body.data.data.items.map((i: { id: string }) => i.id)
    assert.equal(ids[1], 'q1')
    assert.equal(new Set(ids).size, 3)
  })

  it('keeps ids through an edit that sends them back', async () => {
    const created = (await create({ items: [{ title: 'A?', text: 'a' }] })).body.data
    const items = created.data.items.map((i: object) => ({ ...i, text: 'changed' }))
    const res = await api.t.request('PATCH', `${api.base}/${created.id}`, { token: api.token, body: { data: { items } } })
    assert.equal(res.status, 200)
    assert.deepEqual(res.body.data.data.items, [{ id: created.data.items[0].id, title: 'A?', text: 'changed' }])
  })

  it('refuses repeated ids, naming the repeat', () => {
    assert.deepEqual(
      refusedKeys('faq', {
        items: [
          { id: 'x', title: 'a', text: 'a' },
          { id: 'x', title: 'b', text: 'b' },
        ],
      }),
      ['data.items.1.id'],
    )
  })

  it('refuses an empty title or text, also when only tags or spaces were sent', () => {
    assert.deepEqual(refusedKeys('faq', { items: [{ title: '', text: 'a' }] }), ['data.items.0.title'])
    assert.deepEqual(
      refusedKeys('faq', {
        items: [
          { title: 'a', text: '  ' },
          { title: '<b></b>', text: 'b' },
        ],
      }).sort(),
      ['data.items.0.text', 'data.items.1.title'],
    )
    assert.deepEqual(refusedKeys('faq', { items: [{ title: 'a' }] }), ['data.items.0.text'])
  })

  it('keeps question and answer as plain text', () => {
    const data = accepted('faq', { items: [{ title: 'Do <i>you</i> travel?', text: 'Yes<br>often<script>x</script>' }] }) as any
    assert.deepEqual([data.items[0].title, data.items[0].text], ['Do you travel?', 'Yes\noften'])
  })

  it('takes 1 to 50 rows, ids up to 64 characters', () => {
    assert.deepEqual(refusedKeys('faq', { items: [] }), ['data.items'])
    const rows = Array.from({ length: 51 }, (_, i) => ({ title: `Q${i}`, text: 'A' }))
    assert.deepEqual(refusedKeys('faq', { items: rows }), ['data.items'])
    assert.deepEqual(refusedKeys('faq', { items: [{ id: 'x'.repeat(65), title: 'a', text: 'b' }] }), ['data.items.0.id'])
    assert.deepEqual(refusedKeys('faq', { items: [{ title: 'x'.repeat(301), text: 'b' }] }), ['data.items.0.title'])
  })

  it('renders each row as details and summary', () => {
    const data = accepted('faq', { title: 'FAQ', items: [{ title: 'Why?', text: 'Because.\nReally.' }] }) as any
    const html = faq.html({ id: 2, type: 'faq', data, computed: {} }, r).html
    assert.equal(
      html,
      '<section class="slot slot-faq border-faq"><h2>FAQ</h2><details class="slot-faq-item"><summary>Why?<span class="sr-only"> (Show or hide the answer)</span></summary><p>Because.<br>Really.</p></details></section>',
    )
  })

  it('accepts generated valid data and reads it back as written plus defaults (property)', () => {
    assertValidAccepted('faq', validFaq, withDefaults)
  })

  it('refuses generated invalid data with 422 naming every offending key (property)', () => {
    assertInvalidRefused('faq', validFaq)
  })

  it('round-trips generated valid data over HTTP', async () => {
    await assertRoundTripOverHttp(api, validFaq, withDefaults)
  })

  it('answers generated invalid data over HTTP with 422, never a 5xx', async () => {
    await assertInvalidOverHttp(api, validFaq)
  })
})
