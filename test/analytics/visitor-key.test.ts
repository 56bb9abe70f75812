import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { describe, it } from 'node:test'
import { visitorHasher } from '../../src/analytics/visitor-key.ts'

describe('visitor keys', () => {
  const secret = Buffer.from('a test secret of some length')
  const at = new Date('2026-11-22T12:00:00Z')

  it('are exactly HMAC-SHA256 under the day salt', () => {
    const salt = createHmac('sha256', secret).update('slotline visitor salt 2026-11-22').digest()
    const expected = createHmac('sha256', salt).update('203.0.113.9\nMozilla/5.0\n42').digest()
    assert.deepEqual(visitorHasher(secret)('203.0.113.9', 'Mozilla/5.0', 42, at), expected)
  })

  it('differ across pages and days for the same visitor', () => {
    const hash = visitorHasher(secret)
    const a = hash('203.0.113.9', 'Mozilla/5.0', 42, at)
    assert.notDeepEqual(a, hash('203.0.113.9', 'Mozilla/5.0', 43, at))
    assert.notDeepEqual(a, hash('203.0.113.9', 'Mozilla/5.0', 42, new Date('2026-11-23T12:00:00Z')))
    assert.deepEqual(a, hash('203.0.113.9', 'Mozilla/5.0', 42, new Date('2026-11-22T23:59:59Z')))
  })
})
