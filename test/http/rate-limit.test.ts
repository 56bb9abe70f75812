import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { slotService } from '../../src/slots/slot-service.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { useHandClock, WINDOW_EDGE } from '../helpers/rate-limits.ts'

describe(`Rate limits per token (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '3' })
  })
  after(() => t.close())

  it('sends RateLimit headers on every answer and 429 with the exact Retry-After past the limit', async () => {
    const clock = useHandClock(t, WINDOW_EDGE + 15_000)
    const { token } = await makeAccount(t)
    for (let i = 0; i < 3; i++) {
      const res = await t.request('GET', '/v1/me', { token })
      assert.equal(res.status, 200)
      assert.equal(res.headers['ratelimit-limit'], '3')
      assert.equal(res.headers['ratelimit-remaining'], String(2 - i))
      assert.ok(Number(res.headers['ratelimit-reset']) >= 1)
    }
    const res = await t.request('GET', '/v1/me', { token })
    assert.equal(res.status, 429)
    assert.equal(res.body.code, 'rate_limited')
    // 45 s to the window's end, then a third of the next window for the three to weigh two.
    assert.equal(res.headers['retry-after'], '65')
    assert.equal(res.headers['ratelimit-remaining'], '0')
    clock.advance(64_000)
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 429)
    clock.advance(1_000)
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 200)
  })

  it('lets no second quota through at a window edge', async () => {
    const clock = useHandClock(t, WINDOW_EDGE + 59_999)
    const { token } = await makeAccount(t)
    for (let i = 0; i < 3; i++) assert.equal((await t.request('GET', '/v1/me', { token })).status, 200)
    clock.advance(2)
    const after = await Promise.all(Array.from({ length: 3 }, () => t.request('GET', '/v1/me', { token }).then((r) => r.status)))
    assert.deepEqual(after, [429, 429, 429])
  })

  it('counts each token separately', async () => {
    useHandClock(t)
    const a = await makeAccount(t)
    const b = await makeAccount(t)
    for (let i = 0; i < 3; i++) await t.request('GET', '/v1/me', { token: a.token })
    assert.equal((await t.request('GET', '/v1/me', { token: a.token })).status, 429)
    assert.equal((await t.request('GET', '/v1/me', { token: b.token })).status, 200)
  })

  it('reports the limits in force on /me', async () => {
    useHandClock(t)
    const { token } = await makeAccount(t)
    const me = await t.request('GET', '/v1/me', { token })
    assert.deepEqual(me.body.data.limits.rateLimit, { requestsPerSecond: 0, requestsPerMinute: 3, musicLookupPerMinute: 0, analyticsPerMinute: 0 })
  })
})

describe(`Rate limit per second (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_PER_MINUTE: '0' })
  })
  after(() => t.close())

  it('admits exactly 5 of 12 parallel requests in one second', async () => {
    useHandClock(t)
    const { token } = await makeAccount(t)
    const statuses = await Promise.all(Array.from({ length: 12 }, () => t.request('GET', '/v1/me', { token }).then((r) => r.status)))
    assert.equal(statuses.filter((s) => s === 200).length, 5, statuses.join(','))
    assert.equal(statuses.filter((s) => s === 429).length, 7, statuses.join(','))
  })
})

describe(`Rate limits per address without a token (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_ADDRESS_PER_MINUTE: '5' })
  })
  after(() => t.close())

  it('answers 429 to an address past its quota of requests without a valid token', async () => {
    useHandClock(t)
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.request('PATCH', '/v1/profiles/x', { body: {}, ...(i % 2 ? { token: 'slp_not-a-real-token' } : {}) }).then((r) => r.status),
      ),
    )
    assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(','))
    assert.equal(statuses.filter((s) => s === 429).length, 25, statuses.join(','))
    const res = await t.request('GET', '/v1/me')
    assert.equal(res.body.code, 'rate_limited')
    assert.ok(Number(res.headers['retry-after']) >= 1)
  })

  it('keeps serving valid tokens from that address', async () => {
    useHandClock(t)
    for (let i = 0; i < 6; i++) await t.request('GET', '/v1/me')
    const { token } = await makeAccount(t)
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 200)
  })

  it('limits public API reads per address', async () => {
    useHandClock(t)
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await t.request('GET', '/v1/')).status)
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429])
  })

  it('limits click redirects per address with a 429 page', async () => {
    useHandClock(t)
    const { user } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const [slot] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'button', data: { title: 'Go', link: 'https://example.test/' } }])
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${t.url}/-/go/${profile.id}/${slot.id}/0`, { redirect: 'manual' })).status)
    assert.deepEqual(statuses, [302, 302, 302, 302, 302, 429])
    const res = await fetch(`${t.url}/-/go/${profile.id}/${slot.id}/0`, { redirect: 'manual' })
    assert.match(res.headers.get('content-type') ?? '', /text\/html/)
    assert.ok(Number(res.headers.get('retry-after')) >= 1)
  })
})
