import type { Redis } from 'ioredis'

export interface WindowHit {
  count: number
  /** Milliseconds until this window resets. */
  resetMs: number
}

/** Fixed-window counters: one increment per request per window. */
export interface RateLimiter {
  hit(bucket: string, windowMs: number): Promise<WindowHit>
}

export function memoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { count: number; endsAt: number }>()
  let lastSweep = Date.now()
  return {
    async hit(bucket, windowMs) {
      const now = Date.now()
      if (now - lastSweep > 60_000) {
        for (const [k, w] of windows) if (w.endsAt <= now) windows.delete(k)
        lastSweep = now
      }
      const start = now - (now % windowMs)
      const key = `${bucket}:${windowMs}:${start}`
      let w = windows.get(key)
      if (!w) windows.set(key, (w = { count: 0, endsAt: start + windowMs }))
      w.count++
      return { count: w.count, resetMs: w.endsAt - now }
    },
  }
}

/** Shared by every instance: INCR on a key per window, expiring with it. */
export function redisRateLimiter(redis: Redis, prefix = 'slotline:rl:'): RateLimiter {
  return {
    async hit(bucket, windowMs) {
      const now = Date.now()
      const start = now - (now % windowMs)
      const key = `${prefix}${bucket}:${windowMs}:${start}`
      const [[, count]] = (await redis.multi().incr(key).pexpire(key, windowMs + 1000).exec()) as [[null, number], unknown]
      return { count, resetMs: start + windowMs - now }
    },
  }
}
