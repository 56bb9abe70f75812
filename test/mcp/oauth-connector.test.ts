import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { callTool, connectMcp } from '../helpers/mcp.ts'
import { tokensFor } from '../oauth/helpers.ts'

describe(`/mcp with OAuth access tokens (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('serves the tools to a token issued for the connector; after Disconnect on /settings/apps the next call is 401', async () => {
    const { c, tokens } = await tokensFor(t, { resource: `${t.url}/mcp` })
    const client = await connectMcp(t, String(tokens.access_token))
    try {
      const me = await callTool(client, 'get_me')
      assert.ok(!me.isError, me.content[0]?.text)
      assert.equal(me.structuredContent.canWrite, true)
      const created = await callTool(client, 'create_profile', { login: `oauth.page.${Date.now().toString(36)}` })
      assert.ok(!created.isError, created.content[0]?.text)
    } finally {
      await client.close()
    }
    const apps = await c.visitor.get('/settings/apps')
    const grantId = /action="\/settings\/apps\/(\d+)\/disconnect"/.exec(apps.text)?.[1]
    assert.ok(grantId)
    assert.equal((await c.visitor.submit('/settings/apps', {}, `/settings/apps/${grantId}/disconnect`)).status, 303)
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${tokens.access_token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    assert.equal(res.status, 401)
    assert.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/)
  })
})
