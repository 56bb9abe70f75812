import type { Redis } from 'ioredis'
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible'

/** A quota: at most `limit` requests in any `windowMs`, counted per key. */
export interface RateRule {
  /** Names the counter (`m`, `form`, `sign-in`); two rules with one name share counts. */
  name: string
  limit: number
  windowMs: number
}

/** The answer for one request against the rules it was counted under. */
export interface RateVerdict {
  allowed: boolean
  /** The rule shown to the client: the one that refused, else the one with least room left. */
  rule: RateRule
  /** Requests still allowed now under `rule` (0 when refused). */
  remaining: number
  /** Milliseconds until `rule`'s count has fully decayed (RateLimit-Reset). */
  resetMs: number
  /** When refused: milliseconds until the same request would be allowed (Retry-After). */
  retryAfterMs: number
}

/**
 * Sliding-window counters (the weighted two-window estimate): a request at offset `e` into
 * its window is allowed while `previous × (W − e) / W + current ≤ limit`. Unlike fixed windows
 * it never admits a second full quota right after a window edge. A refused request is given
 * back, so a client that keeps knocking is not locked out for longer than Retry-After says.
 */
export interface RateLimiter {
  /** Counts one request under every rule for `key`; if any rule refuses, none keeps it. */
  take(key: string, rules: RateRule[]): Promise<RateVerdict>
}

export interface RateLimiterOptions {
  /** The clock windows are cut from (tests move it by hand). */
  now?: () => number
}

/** The counts one rule sees for a key at `now`, after this request was added to `current`. */
interface Counts {
  previous: number
  current: number
  offset: number
}

/** Milliseconds until a request with `limit` would be allowed, given the counts without it. */
export function msUntilAllowed(rule: RateRule, previous: number, current: number, offset: number): number {
  const { limit, windowMs: w } = rule
  if (limit <= 0) return Number.POSITIVE_INFINITY
  // Still in this window: previous × (W − e − Δ) + (current + 1) × W ≤ limit × W.
  if (current + 1 <= limit) {
    const room = (limit - current - 1) * w
    if (previous * (w - offset) <= room) return 0
    const delta = w - offset - room / previous
    if (delta < w - offset) return Math.ceil(delta)
  }
  // In the next window, where this window's count becomes the previous one: current × (W − e′) + W ≤ limit × W.
  const into = current <= limit - 1 ? 0 : w - ((limit - 1) * w) / current
  return Math.ceil(w - offset + into)
}

function judge(rule: RateRule, { previous, current, offset }: Counts) {
  const w = rule.windowMs
  const weighted = previous * (w - offset) + current * w
  const allowed = weighted <= rule.limit * w
  const remaining = allowed ? Math.max(0, Math.floor((rule.limit * w - weighted) / w)) : 0
  const resetMs = current > 0 ? 2 * w - offset : previous > 0 ? w - offset : 0
  const retryAfterMs = allowed ? 0 : Math.max(1, msUntilAllowed(rule, previous, current - 1, offset))
  return { rule, allowed, remaining, resetMs, retryAfterMs }
}

/** Over rate-limiter-flexible's counters (atomic increments with expiry, in memory or on Redis). */
function slidingWindows(counter: RateLimiterAbstract, now: () => number): RateLimiter {
  const keyOf = (rule: RateRule, key: string, window: number) => `${rule.name}:${rule.windowMs}:${key}:${window}`
  // A window's count is read during the next one, so it lives for two windows (and a second of slack).
  const duration = (rule: RateRule) => ({ customDuration: Math.ceil((2 * rule.windowMs) / 1000) + 1 })
  const points = (res: RateLimiterRes | null) => Math.max(0, res?.consumedPoints ?? 0)

  return {
    async take(key, rules) {
      const t = now()
      const counted = await Promise.all(
        rules.map(async (rule) => {
          const window = Math.floor(t / rule.windowMs)
          const [current, previous] = await Promise.all([
            counter.penalty(keyOf(rule, key, window), 1, duration(rule)),
            counter.get(keyOf(rule, key, window - 1)),
          ])
          return { window, ...judge(rule, { previous: points(previous), current: points(current), offset: t - window * rule.windowMs }) }
        }),
      )
      const refused = counted.filter((v) => !v.allowed)
      if (refused.length) {
        await Promise.all(counted.map((v) => counter.reward(keyOf(v.rule, key, v.window), 1, duration(v.rule))))
        const worst = refused.reduce((a, b) => (b.retryAfterMs > a.retryAfterMs ? b : a))
        return { allowed: false, rule: worst.rule, remaining: 0, resetMs: worst.resetMs, retryAfterMs: worst.retryAfterMs }
      }
      const tightest = counted.reduce((a, b) => (b.remaining < a.remaining ? b : a))
      return { allowed: true, rule: tightest.rule, remaining: tightest.remaining, resetMs: tightest.resetMs, retryAfterMs: 0 }
    },
  }
}

export function memoryRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  return slidingWindows(new RateLimiterMemory({ keyPrefix: 'rl', points: 1, duration: 1 }), options.now ?? Date.now)
}

/**
 * Shared by every instance of the service: the counters live on Redis. While Redis is not
 * connected, each instance counts in its own memory instead (rate-limiter-flexible's insurance
 * limiter), so an outage loosens limits to per-instance ones rather than failing every request.
 */
export function redisRateLimiter(redis: Redis, options: RateLimiterOptions & { prefix?: string } = {}): RateLimiter {
  const counter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: options.prefix ?? 'slotline:rl',
    points: 1,
    duration: 1,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: 'rl', points: 1, duration: 1 }),
  })
  return slidingWindows(counter, options.now ?? Date.now)
}

// The context holds this as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    rateLimiter: RateLimiter
  }
}
