import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import * as oauth from 'oauth4webapi'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { callTool, connectMcp } from '../helpers/mcp.ts'
import { useHandClock } from '../helpers/rate-limits.ts'
import { authorizationUrl, exchange, insecure, tokensFor } from '../oauth/helpers.ts'

const PER_MINUTE = 10

describe(`rate limits of OAuth clients, per account and client (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) })
  })
  after(() => t.close())

  it('does not reset the limit on a refresh, and the refresh ends the access token it replaces', async () => {
    const clock = useHandClock(t)
    const { c, tokens } = await tokensFor(t, { resource: `${t.url}/mcp` })
    const first = await connectMcp(t, String(tokens.access_token))
    try {
      for (let i = 0; i < PER_MINUTE; i++) {
        const me = await callTool(first, 'get_me')
        assert.ok(!me.isError, `call ${i + 1}: ${me.content[0]?.text}`)
        clock.advance(1000)
      }
      assert.match((await callTool(first, 'get_me')).content[0].text!, /Rate limit of 10 tool calls per minute reached/)
    } finally {
      await first.close()
    }
    const res = await oauth.refreshTokenGrantRequest(c.as, c.client, oauth.None(), String(tokens.refresh_token), insecure)
    const refreshed = await oauth.processRefreshTokenResponse(c.as, c.client, res)
    const second = await connectMcp(t, String(refreshed.access_token))
    try {
      const me = await callTool(second, 'get_me')
      assert.equal(me.isError, true, 'the new token draws on the same budget')
      assert.match(me.content[0].text!, /Rate limit of 10 tool calls per minute reached/)
    } finally {
      await second.close()
    }
    const old = await t.request('GET', '/v1/me', { token: String(tokens.access_token) })
    assert.equal(old.status, 401, 'the replaced access token is revoked')
  })

  it('does not give a second authorization of the same client, or the REST API, a budget of its own', async () => {
    const clock = useHandClock(t)
    const { c, tokens } = await tokensFor(t)
    for (let i = 0; i < PER_MINUTE; i++) {
      assert.equal((await t.request('GET', '/v1/me', { token: String(tokens.access_token) })).status, 200)
      clock.advance(1000)
    }
    const a = await authorizationUrl(t, c)
    // Consent was given once: the server sends the browser straight back with a code.
    const page = await c.visitor.get(a.url.pathname + a.url.search)
    assert.equal(page.status, 303)
    const again = await exchange(c, new URL(page.location!), a)
    const client = await connectMcp(t, String(again.access_token))
    try {
      assert.match((await callTool(client, 'get_me')).content[0].text!, /Rate limit of 10 tool calls per minute reached/)
    } finally {
      await client.close()
    }
  })

  it('keeps the budgets of two clients of one account apart', async () => {
    const clock = useHandClock(t)
    const one = await tokensFor(t)
    for (let i = 0; i < PER_MINUTE; i++) {
      assert.equal((await t.request('GET', '/v1/me', { token: String(one.tokens.access_token) })).status, 200)
      clock.advance(1000)
    }
    assert.equal((await t.request('GET', '/v1/me', { token: String(one.tokens.access_token) })).status, 429)
    const other = await tokensFor(t)
    assert.equal((await t.request('GET', '/v1/me', { token: String(other.tokens.access_token) })).status, 200)
  })
})
