import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'

const TOKEN = 'metrics-token-0123456789'

describe(`GET /-/metrics without METRICS_TOKEN: this host only (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('answers a scraper on 127.0.0.1', async () => {
    const res = await fetch(`${t.url}/-/metrics`)
    assert.equal(res.status, 200)
    assert.match(await res.text(), /slotline_http_requests_total/)
  })

  it('refuses another address with 403 in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/-/metrics', remoteAddress: '203.0.113.9' })
    assert.equal(res.statusCode, 403)
    assert.equal(res.json().code, 'forbidden')
  })

  it('refuses a request that came through a proxy on this host', async () => {
    for (const headers of [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }] as Record<string, string>[]) {
      const res = await fetch(`${t.url}/-/metrics`, { headers })
      assert.equal(res.status, 403)
    }
  })
})

describe(`GET /-/metrics with METRICS_TOKEN (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ METRICS_TOKEN: TOKEN })
  })
  after(() => t.close())

  it('answers the bearer token from anywhere', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/-/metrics', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${TOKEN}` } })
    assert.equal(res.statusCode, 200)
  })

  it('answers 401 with a challenge to no token or a wrong one, even from this host', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN]) {
      const res = await fetch(`${t.url}/-/metrics`, { headers: authorization ? { authorization } : {} })
      assert.equal(res.status, 401, String(authorization))
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="metrics"/)
    }
  })
})
