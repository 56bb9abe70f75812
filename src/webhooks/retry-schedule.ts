/**
 * When a failed delivery is tried again, after its first attempt: the Standard Webhooks
 * schedule (seconds, then minutes, then hours) stretched to about three days, so a receiver
 * down over a weekend still gets everything. After the last one the delivery has failed.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  14 * 3600_000,
  20 * 3600_000,
  20 * 3600_000,
]

/** A receiver asking for more time never holds a delivery past this between two attempts. */
const MAX_RETRY_AFTER_MS = 24 * 3600_000

/** ±10 %, so endpoints that failed together are not all tried again in the same second. */
const JITTER = 0.1

/**
 * The delay before the next attempt once `attempts` have been made, or undefined when none is
 * left. A `Retry-After` the receiver sent (429, 502, 503, 504) is honoured when it asks for
 * longer than the schedule, up to a day.
 */
export function nextDelayMs(attempts: number, retryAfterMs: number | undefined, random: () => number = Math.random): number | undefined {
  const scheduled = RETRY_DELAYS_MS[attempts - 1]
  if (scheduled === undefined) return undefined
  const jittered = Math.round(scheduled * (1 - JITTER + 2 * JITTER * random()))
  return retryAfterMs === undefined ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS))
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (!header) return undefined
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}
