import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import divider from '../../src/slots/divider.ts'
import { STORE } from '../helpers/app.ts'
import { accepted, check, PROPERTY_RUNS, refusedKeys, renderContext, useSlotApi } from '../helpers/slots.ts'

const r = renderContext()

describe(`divider slots (${STORE})`, () => {
  const api = useSlotApi('divider')

  it('accepts {}, [] or no data at all, and stores {}', async () => {
    for (const body of [{ type: 'divider', data: {} }, { type: 'divider', data: [] }, { type: 'divider' }]) {
      const res = await api.t.request('POST', api.base, { token: api.token, body })
      assert.equal(res.status, 201)
      assert.deepEqual(res.body.data.data, {})
      assert.deepEqual(res.body.data.computed, {})
    }
  })

  it('refuses any field, naming each', async () => {
    const res = await api.t.request('POST', api.base, { token: api.token, body: { type: 'divider', data: { color: 'red', size: 2 } } })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['data.color', 'data.size'])
  })

  it('refuses a non-empty array or another type of value, naming data', () => {
    assert.deepEqual(refusedKeys('divider', [1]), ['data'])
    assert.deepEqual(refusedKeys('divider', 'line'), ['data'])
    assert.deepEqual(refusedKeys('divider', null), ['data'])
  })

  it('renders a horizontal rule', () => {
    assert.equal(divider.html({ id: 1, type: 'divider', data: {}, computed: {} }, r).html, '<hr class="slot slot-divider">')
    assert.equal(divider.markdown({ id: 1, type: 'divider', data: {}, computed: {} }), '---')
  })

  it('accepts generated empty data as {} (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom({}, []), (data) => {
        assert.deepEqual(accepted('divider', data), {})
      }),
      { numRuns: 10 },
    )
  })

  it('refuses generated fields and values with 422 naming them (property)', () => {
    const field = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,10}$/)
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null))
    fc.assert(
      fc.property(fc.dictionary(field, value, { minKeys: 1, maxKeys: 4 }), (data) => {
        const result = check('divider', data)
        assert.equal(result.ok, false)
        if (!result.ok)
          assert.deepEqual(
            Object.keys(result.errors).sort(),
            Object.keys(data)
              .map((k) => `data.${k}`)
              .sort(),
          )
      }),
      { numRuns: PROPERTY_RUNS },
    )
    fc.assert(
      fc.property(fc.oneof(fc.array(value, { minLength: 1 }), fc.string(), fc.integer(), fc.boolean()), (data) => {
        assert.deepEqual(refusedKeys('divider', data), ['data'])
      }),
      { numRuns: PROPERTY_RUNS },
    )
  })
})
