import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseId } from '../../src/kernel/ids.ts'

describe('parseId, the one test of an id in a path', () => {
  it('takes a positive whole number without leading zeros', () => {
    assert.equal(parseId('1'), 1)
    assert.equal(parseId('4200'), 4200)
    assert.equal(parseId('9'.repeat(16)), Number('9'.repeat(16)))
  })

  it('refuses zero, padding, signs, fractions, words and 17 digits', () => {
    for (const text of ['0', '007', '-1', '+1', '1.5', '1e3', 'abc', '', ' 1', '1'.repeat(17), undefined]) assert.equal(parseId(text), undefined, String(text))
  })
})
