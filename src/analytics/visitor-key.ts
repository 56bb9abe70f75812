import { createHmac } from 'node:crypto'

/**
 * Visitor keys without cookies or stored addresses: HMAC(salt of the day, address + agent +
 * page). The salt is derived from the service secret and the UTC date and lives only in this
 * closure, replaced when the date changes, so yesterday's keys cannot be recomputed from
 * today's state and a visitor cannot be followed from one day to the next or across pages.
 */
export function visitorHasher(secret: Buffer): (ip: string, userAgent: string, profileId: number, at: Date) => Buffer {
  let saltDay = ''
  let salt: Buffer = Buffer.alloc(0)
  return (ip, userAgent, profileId, at) => {
    const day = at.toISOString().slice(0, 10)
    if (day !== saltDay) {
      salt = createHmac('sha256', secret).update(`slotline visitor salt ${day}`).digest()
      saltDay = day
    }
    return createHmac('sha256', salt).update(`${ip}\n${userAgent}\n${profileId}`).digest()
  }
}
