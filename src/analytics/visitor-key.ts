import { createHash, createHmac, type Hash } from 'node:crypto'

const BLOCK = 64 // SHA-256 block size in bytes (RFC 2104)

/**
 * HMAC-SHA256 with the key's inner and outer pad states hashed once: each message then costs
 * two Hash.copy() calls instead of a fresh HMAC set-up. Same digests as createHmac.
 */
function precomputedHmac(key: Buffer): (message: string) => Buffer {
  const k = Buffer.alloc(BLOCK)
  ;(key.length > BLOCK ? createHash('sha256').update(key).digest() : key).copy(k)
  const pad = (byte: number) => Buffer.from(k.map((b) => b ^ byte))
  const inner: Hash = createHash('sha256').update(pad(0x36))
  const outer: Hash = createHash('sha256').update(pad(0x5c))
  return (message) => outer.copy().update(inner.copy().update(message).digest()).digest()
}

/**
 * Visitor keys without cookies or stored addresses: HMAC(salt of the day, address + agent +
 * page). The salt is derived from the service secret and the UTC date and lives only in this
 * closure, replaced when the date changes, so yesterday's keys cannot be recomputed from
 * today's state and a visitor cannot be followed from one day to the next or across pages.
 */
export function visitorHasher(secret: Buffer): (ip: string, userAgent: string, profileId: number, at: Date) => Buffer {
  let saltDay = ''
  let keyed: (message: string) => Buffer = () => Buffer.alloc(0)
  return (ip, userAgent, profileId, at) => {
    const day = at.toISOString().slice(0, 10)
    if (day !== saltDay) {
      keyed = precomputedHmac(createHmac('sha256', secret).update(`slotline visitor salt ${day}`).digest())
      saltDay = day
    }
    return keyed(`${ip}\n${userAgent}\n${profileId}`)
  }
}
