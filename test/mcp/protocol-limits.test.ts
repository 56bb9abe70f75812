import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../src/config.ts'
import { protocolRules } from '../../src/infra/token-limits.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { useHandClock } from '../helpers/rate-limits.ts'

const defaults = loadConfig({}).rateLimit

describe(`/mcp protocol messages at the default limits (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_PER_SECOND: String(defaults.perSecond), RATE_LIMIT_PER_MINUTE: String(defaults.perMinute) })
  })
  after(() => t.close())

  const post = (token: string, message: object) =>
    fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
    })

  it('counts ping and tools/list under a limit of their own, wider than the tool calls', async () => {
    const clock = useHandClock(t)
    const { token } = await makeAccount(t)
    const perMinute = protocolRules(defaults).find((r) => r.windowMs === 60_000)!.limit
    const perSecond = 20
    assert.ok(perMinute > defaults.perMinute)
    // A second's worth at once, then the hand clock moves two (the sliding window still weighs the last one), all in one minute.
    for (let sent = 0; sent < perMinute; sent += perSecond) {
      const statuses = await Promise.all(
        Array.from({ length: perSecond }, (_, i) =>
          post(token, i % 2 ? { method: 'ping' } : { method: 'tools/list', params: {} }).then(async (r) => {
            await r.text()
            return r.status
          }),
        ),
      )
      assert.deepEqual(new Set(statuses), new Set([200]))
      clock.advance(2000)
    }
    const refused = await post(token, { method: 'ping' })
    assert.equal(refused.status, 429)
    assert.ok(Number(refused.headers.get('retry-after')) >= 1)
    assert.match((await refused.json()).message, /MCP messages per minute/)
    const call = await post(token, { method: 'tools/call', params: { name: 'get_me', arguments: {} } })
    assert.equal(call.status, 200, 'tool calls count under their own rules')
  })
})
