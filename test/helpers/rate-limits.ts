import { randomBytes } from 'node:crypto'
import { memoryRateLimiter, redisRateLimiter } from '../../src/infra/rate-limiter.ts'
import type { TestApp } from './app.ts'

/** A clock the test moves by hand; windows are cut from it, so edges are exact. */
export function handClock(start: number) {
  let now = start
  return { now: () => now, set: (t: number) => void (now = t), advance: (ms: number) => void (now += ms) }
}

export type HandClock = ReturnType<typeof handClock>

/** A start that is a multiple of every window the service uses (1 s to 10 min). */
export const WINDOW_EDGE = 1_800_000_000_000 - (1_800_000_000_000 % 600_000)

/**
 * Gives a test app's limiter (in memory, or on its Redis for PostgreSQL runs) a hand-moved clock,
 * so limits are tested by counting, never by waiting. Each call starts from empty counters.
 */
export function useHandClock(t: TestApp, start = WINDOW_EDGE): HandClock {
  const clock = handClock(start)
  t.ctx.rateLimiter = t.ctx.redis
    ? redisRateLimiter(t.ctx.redis, { now: clock.now, prefix: `rl${randomBytes(4).toString('hex')}` })
    : memoryRateLimiter({ now: clock.now })
  return clock
}
