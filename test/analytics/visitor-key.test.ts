import assert from 'node:assert/strict'
import { createHash, createHmac } from 'node:crypto'
import { describe, it } from 'node:test'
import { visitorHasher } from '../../src/analytics/visitor-key.ts'

describe('visitor keys', () => {
  const secret = Buffer.from('a test secret of some length')
  const at = new Date('2026-11-22T12:00:00Z')

  it('are SHA-256 of the day key (HMAC of the secret and the date) and the visit', () => {
    const dayKey = createHmac('sha256', secret).update('slotline visitor salt 2026-11-22').digest('hex')
    const expected = createHash('sha256').update(`${dayKey}\n203.0.113.9\nMozilla/5.0\n42`).digest('hex')
    assert.equal(visitorHasher(secret)('203.0.113.9', 'Mozilla/5.0', 42, at), expected)
  })

  it('depend on the secret', () => {
    const a = visitorHasher(secret)('203.0.113.9', 'Mozilla/5.0', 42, at)
    assert.notDeepEqual(a, visitorHasher(Buffer.from('another secret'))('203.0.113.9', 'Mozilla/5.0', 42, at))
  })

  it('differ across pages and days for the same visitor', () => {
    const key = visitorHasher(secret)
    const a = key('203.0.113.9', 'Mozilla/5.0', 42, at)
    assert.notDeepEqual(a, key('203.0.113.9', 'Mozilla/5.0', 43, at))
    assert.notDeepEqual(a, key('203.0.113.9', 'Mozilla/5.0', 42, new Date('2026-11-23T12:00:00Z')))
    assert.deepEqual(a, key('203.0.113.9', 'Mozilla/5.0', 42, new Date('2026-11-22T23:59:59Z')))
  })
})
