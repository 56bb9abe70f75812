import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'

describe(`Operations routes (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('GET /-/healthz checks the store', async () => {
    const res = await t.request('GET', '/-/healthz')
    assert.equal(res.status, 200)
    assert.equal(res.body.data.status, 'ok')
    assert.equal(res.body.data.checks.store, 'ok')
    if (STORE === 'postgres' && t.ctx.redis) assert.equal(res.body.data.checks.redis, 'ok')
  })

  it('GET /-/healthz answers 503 naming the check that failed', async () => {
    const broken = await startApp()
    try {
      await broken.ctx.db.destroy()
      const res = await broken.request('GET', '/-/healthz')
      assert.equal(res.status, 503)
      assert.equal(res.body.data.status, 'unavailable')
      assert.notEqual(res.body.data.checks.store, 'ok')
      assert.equal(typeof res.body.data.checks.store, 'string')
      if (broken.ctx.redis) assert.equal(res.body.data.checks.redis, 'ok')
    } finally {
      await broken.close()
    }
  })

  it('GET /-/metrics counts requests by route pattern and status', async () => {
    const { token } = await makeAccount(t)
    await t.request('GET', '/v1/me', { token })
    await t.request('GET', '/v1/me')
    const res = await t.request('GET', '/-/metrics')
    assert.equal(res.status, 200)
    assert.match(res.text, /slotline_http_requests_total\{method="GET",route="\/v1\/me",status="200"\} \d+/)
    assert.match(res.text, /slotline_http_requests_total\{method="GET",route="\/v1\/me",status="401"\} \d+/)
    assert.match(res.text, /slotline_http_request_duration_seconds_bucket/)
  })

  it('echoes a request id on every answer', async () => {
    const res = await t.request('GET', '/v1/', { headers: { 'x-request-id': 'abc-123' } })
    assert.equal(res.headers['x-request-id'], 'abc-123')
    assert.ok((await t.request('GET', '/v1/')).headers['x-request-id'])
  })
})
