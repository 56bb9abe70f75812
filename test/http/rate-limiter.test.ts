import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { Redis } from 'ioredis'
import { addressKey } from '../../src/http/rate-limit-hooks.ts'
import { memoryRateLimiter, msUntilAllowed, type RateLimiter, type RateRule, redisRateLimiter } from '../../src/infra/rate-limiter.ts'

import { handClock, WINDOW_EDGE as EPOCH } from '../helpers/rate-limits.ts'

const MINUTE = 60_000

const stores: Array<{ name: string; make: (clock: () => number) => RateLimiter; close?: () => Promise<void> }> = [
  { name: 'memory', make: (now) => memoryRateLimiter({ now }) },
]
let redis: Redis | undefined
if (process.env.TEST_REDIS_URL) {
  const prefix = `test:rl:${randomBytes(4).toString('hex')}:`
  redis = new Redis(process.env.TEST_REDIS_URL, { keyPrefix: prefix, lazyConnect: true })
  stores.push({
    name: 'redis',
    make: (now) => redisRateLimiter(redis!, { now, prefix: `s${randomBytes(4).toString('hex')}` }),
  })
}

async function takeMany(limiter: RateLimiter, key: string, rules: RateRule[], n: number) {
  const verdicts = []
  for (let i = 0; i < n; i++) verdicts.push(await limiter.take(key, rules))
  return verdicts
}

describe('msUntilAllowed', () => {
  it('is exact: a request refused at t is allowed at t + wait and still refused 1 ms before', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom(1000, 60_000, 600_000),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: 0, max: 599_999 }),
        (limit, windowMs, previous, current, rawOffset) => {
          const offset = rawOffset % windowMs
          const rule = { name: 'x', limit, windowMs }
          // The weighted estimate including one more request at a time `d` after now.
          const allowedAt = (d: number) => {
            const e = offset + d
            const [p, c] = e < windowMs ? [previous, current] : e < 2 * windowMs ? [current, 0] : [0, 0]
            const off = e % windowMs
            return p * (windowMs - off) + (c + 1) * windowMs <= limit * windowMs
          }
          const wait = msUntilAllowed(rule, previous, current, offset)
          assert.ok(allowedAt(wait), `allowed after ${wait} ms`)
          if (wait > 0) assert.ok(!allowedAt(wait - 1), `refused at ${wait - 1} ms`)
        },
      ),
      { numRuns: 2000 },
    )
  })
})

for (const store of stores) {
  describe(`Sliding-window limiter (${store.name})`, () => {
    before(async () => {
      if (store.name === 'redis') await redis!.connect()
    })
    after(async () => {
      if (store.name === 'redis') await redis!.quit()
    })

    const perMinute = (limit: number): RateRule => ({ name: 'm', limit, windowMs: MINUTE })

    it('admits the limit in a burst and refuses the next with the exact Retry-After', async () => {
      const clock = handClock(EPOCH + 15_000)
      const limiter = store.make(clock.now)
      const verdicts = await takeMany(limiter, 'k', [perMinute(3)], 3)
      assert.deepEqual(
        verdicts.map((v) => [v.allowed, v.remaining]),
        [
          [true, 2],
          [true, 1],
          [true, 0],
        ],
      )
      const refused = await limiter.take('k', [perMinute(3)])
      assert.equal(refused.allowed, false)
      // Next window, where 3 in the previous one weigh 3 × (W − e)/W: room for one at e = W/3.
      assert.equal(refused.retryAfterMs, 45_000 + 20_000)
      clock.advance(refused.retryAfterMs - 1)
      assert.equal((await limiter.take('k', [perMinute(3)])).allowed, false)
      clock.advance(1)
      assert.equal((await limiter.take('k', [perMinute(3)])).allowed, true)
    })

    it('admits no second quota right after a window edge, and half of one half a window later', async () => {
      const clock = handClock(EPOCH + MINUTE - 1)
      const limiter = store.make(clock.now)
      const rule = perMinute(10)
      assert.equal((await takeMany(limiter, 'edge', [rule], 10)).filter((v) => v.allowed).length, 10)
      clock.advance(2) // 1 ms into the next window: a fixed window would start over here
      assert.equal((await takeMany(limiter, 'edge', [rule], 10)).filter((v) => v.allowed).length, 0)
      clock.advance(MINUTE / 2 - 1) // half-way: the previous ten weigh five
      assert.equal((await takeMany(limiter, 'edge', [rule], 10)).filter((v) => v.allowed).length, 5)
    })

    it('does not count refused requests, so knocking does not lengthen the wait', async () => {
      const clock = handClock(EPOCH)
      const limiter = store.make(clock.now)
      const rule = perMinute(2)
      await takeMany(limiter, 'knock', [rule], 2)
      const first = await limiter.take('knock', [rule])
      const knocks = await takeMany(limiter, 'knock', [rule], 20)
      assert.ok(knocks.every((v) => !v.allowed && v.retryAfterMs === first.retryAfterMs))
      clock.advance(first.retryAfterMs)
      assert.equal((await limiter.take('knock', [rule])).allowed, true)
    })

    it('charges no rule when one of several refuses', async () => {
      const clock = handClock(EPOCH)
      const limiter = store.make(clock.now)
      const second: RateRule = { name: 's', limit: 2, windowMs: 1000 }
      const minute = perMinute(5)
      const burst = await takeMany(limiter, 'multi', [second, minute], 4)
      assert.deepEqual(
        burst.map((v) => v.allowed),
        [true, true, false, false],
      )
      assert.equal(burst[2].rule.name, 's')
      // The two refusals were not charged to the minute: three more fit in it, a fourth does not.
      for (let i = 0; i < 3; i++) {
        clock.advance(2000)
        assert.equal((await limiter.take('multi', [second, minute])).allowed, true)
      }
      clock.advance(2000)
      const sixth = await limiter.take('multi', [second, minute])
      assert.equal(sixth.allowed, false)
      assert.equal(sixth.rule.name, 'm')
    })

    it('counts keys and rules apart', async () => {
      const clock = handClock(EPOCH)
      const limiter = store.make(clock.now)
      await takeMany(limiter, 'a', [perMinute(1)], 1)
      assert.equal((await limiter.take('a', [perMinute(1)])).allowed, false)
      assert.equal((await limiter.take('b', [perMinute(1)])).allowed, true)
      assert.equal((await limiter.take('a', [{ name: 'other', limit: 1, windowMs: MINUTE }])).allowed, true)
    })

    it('admits exactly the limit from parallel requests', async () => {
      const clock = handClock(EPOCH)
      const limiter = store.make(clock.now)
      const verdicts = await Promise.all(Array.from({ length: 30 }, () => limiter.take('par', [perMinute(7)])))
      assert.equal(verdicts.filter((v) => v.allowed).length, 7)
    })
  })
}

if (redis) {
  describe('Sliding-window limiter shared on Redis', () => {
    it('counts one key across two instances as one', async () => {
      const r = new Redis(process.env.TEST_REDIS_URL!, { keyPrefix: `test:rl2:${randomBytes(4).toString('hex')}:`, lazyConnect: true })
      await r.connect()
      try {
        const clock = handClock(EPOCH)
        const a = redisRateLimiter(r, { now: clock.now })
        const b = redisRateLimiter(r, { now: clock.now })
        const rule: RateRule = { name: 'm', limit: 6, windowMs: MINUTE }
        const verdicts = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).take('shared', [rule])))
        assert.equal(verdicts.filter((v) => v.allowed).length, 6)
      } finally {
        await r.quit()
      }
    })
  })
}

describe('Sliding-window limiter while Redis is unreachable', () => {
  it('keeps limiting, in the memory of this instance', async () => {
    // Port 9 on loopback: nothing listens, so the client never becomes ready.
    const down = new Redis({ host: '127.0.0.1', port: 9, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 })
    try {
      const clock = handClock(EPOCH)
      const limiter = redisRateLimiter(down, { now: clock.now })
      const verdicts = await takeMany(limiter, 'outage', [{ name: 'm', limit: 3, windowMs: MINUTE }], 5)
      assert.deepEqual(
        verdicts.map((v) => v.allowed),
        [true, true, true, false, false],
      )
    } finally {
      down.disconnect()
    }
  })
})

describe('addressKey', () => {
  it('counts an IPv6 /64 as one address, and IPv4 (mapped or not) as itself', () => {
    assert.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64')
    assert.equal(addressKey('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64')
    assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64')
    assert.equal(addressKey('::1'), '0:0:0:0::/64')
    assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64')
    assert.equal(addressKey('::ffff:203.0.113.9'), '203.0.113.9')
    assert.equal(addressKey('203.0.113.9'), '203.0.113.9')
    assert.notEqual(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:3::1'))
  })
})
