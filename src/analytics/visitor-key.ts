import { hash, createHmac } from 'node:crypto'

/**
 * Visitor keys without cookies or stored addresses: SHA-256(day key ‖ address, agent, page).
 * The day key is HMAC(secret, UTC date): it lives only in this closure and is replaced when the
 * date changes, so yesterday's keys cannot be recomputed from today's state and a visitor cannot
 * be followed from one day to the next or across pages.
 *
 * A fixed-length secret prefix under one SHA-256 is a sound keyed hash here: the digests never
 * leave the process (they only feed HyperLogLog registers), so length extension has nothing to
 * extend, and one one-shot hash per view costs half of HMAC's two on the page's hottest path.
 */
export function visitorHasher(secret: Buffer): (ip: string, userAgent: string, profileId: number, at: Date) => string {
  let saltDay = -1
  let dayKey = ''
  return (ip, userAgent, profileId, at) => {
    // The UTC day as a number: a date string per view would cost more than the comparison.
    const day = Math.floor(at.getTime() / 86_400_000)
    if (day !== saltDay) {
      dayKey = createHmac('sha256', secret)
        .update(`slotline visitor salt ${at.toISOString().slice(0, 10)}`)
        .digest('hex')
      saltDay = day
    }
    // Hex, not a Buffer: allocating a Buffer on every visit costs more than the hash itself.
    return hash('sha256', `${dayKey}\n${ip}\n${userAgent}\n${profileId}`, 'hex')
  }
}
