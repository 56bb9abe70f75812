import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'

describe(`Rate limits per token (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '3' })
  })
  after(() => t.close())

  it('sends RateLimit headers on every answer and 429 with Retry-After past the limit', async () => {
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
    const retry = Number(res.headers['retry-after'])
    assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${res.headers['retry-after']}`)
    assert.equal(res.headers['ratelimit-remaining'], '0')
  })

  it('counts each token separately', async () => {
    const a = await makeAccount(t)
    const b = await makeAccount(t)
    for (let i = 0; i < 3; i++) await t.request('GET', '/v1/me', { token: a.token })
    assert.equal((await t.request('GET', '/v1/me', { token: a.token })).status, 429)
    assert.equal((await t.request('GET', '/v1/me', { token: b.token })).status, 200)
  })

  it('reports the limits in force on /me', async () => {
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

  it('refuses requests past 5 in one second', async () => {
    const { token } = await makeAccount(t)
    // 12 at once span at most two one-second windows, which admit 10 at most.
    const statuses = await Promise.all(Array.from({ length: 12 }, () => t.request('GET', '/v1/me', { token }).then((r) => r.status)))
    assert.ok(statuses.filter((s) => s === 429).length >= 2, statuses.join(','))
    assert.ok(statuses.filter((s) => s === 200).length >= 5, statuses.join(','))
  })
})
