import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { usersRepository } from '../../src/store/users.ts'
import { makeProfile, makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { callTool, connectMcp } from '../helpers/mcp.ts'
import { tokensFor } from '../oauth/helpers.ts'

/** A raw JSON-RPC POST to /mcp with a bearer token, to read the status and WWW-Authenticate the SDK hides. */
async function postMcp(t: TestApp, token: string, body: unknown) {
  return fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  })
}

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
    const res = await postMcp(t, String(tokens.access_token), { jsonrpc: '2.0', id: 1, method: 'tools/list' })
    assert.equal(res.status, 401)
    assert.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/)
  })

  it('lets a read-only grant read, and answers a write tool with 403 insufficient_scope naming the scopes to ask for', async () => {
    const { c, tokens } = await tokensFor(t, { scope: 'profile:read', resource: `${t.url}/mcp` })
    assert.equal(tokens.scope, 'profile:read')
    const user = await usersRepository.findByEmail(t.ctx.db, c.email)
    assert.ok(user)
    const page = await makeProfile(t, user)
    const reader = await connectMcp(t, String(tokens.access_token))
    try {
      const read = await callTool(reader, 'get_profile', { profileKey: page.login })
      assert.ok(!read.isError, read.content[0]?.text)
      assert.equal(read.structuredContent.profile.login, page.login)
    } finally {
      await reader.close()
    }

    const write = await postMcp(t, String(tokens.access_token), {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'create_slots', arguments: { profileKey: page.id, slots: [{ type: 'divider' }] } },
    })
    assert.equal(write.status, 403)
    const challenge = write.headers.get('www-authenticate') ?? ''
    assert.match(challenge, /^Bearer /)
    assert.match(challenge, /error="insufficient_scope"/)
    assert.match(challenge, /scope="profile:write profile:read"/)
    assert.ok(challenge.includes(`resource_metadata="${t.url}/.well-known/oauth-protected-resource/mcp"`), challenge)
    const slots = await t.request('GET', `/v1/profiles/${page.id}/slots`, { token: await makeToken(t, user) })
    assert.equal(slots.body.data.length, 0, 'nothing was written')
  })

  it('refuses an access token issued for the REST API with 401 invalid_token, though the API takes it', async () => {
    const { tokens } = await tokensFor(t, { resource: `${t.url}/v1` })
    const token = String(tokens.access_token)
    const res = await postMcp(t, token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })
    assert.equal(res.status, 401)
    const challenge = res.headers.get('www-authenticate') ?? ''
    assert.match(challenge, /error="invalid_token"/)
    assert.ok(challenge.includes(`resource_metadata="${t.url}/.well-known/oauth-protected-resource/mcp"`), challenge)
    const body = await res.json()
    assert.equal(body.code, 'unauthenticated')
    assert.ok(body.message.includes(`issued for ${t.url}/v1`), body.message)
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 200)
  })

  it('reports in limits.tokens.used the personal tokens the limit counts, not the OAuth access and refresh tokens (get_me and /v1/me)', async () => {
    const { c, tokens } = await tokensFor(t, { resource: `${t.url}/mcp` })
    const user = await usersRepository.findByEmail(t.ctx.db, c.email)
    assert.ok(user)
    const personal = await makeToken(t, user)
    const client = await connectMcp(t, String(tokens.access_token))
    try {
      const me = await callTool(client, 'get_me')
      assert.deepEqual(me.structuredContent.limits.tokens, { used: 1, max: 5 })
    } finally {
      await client.close()
    }
    assert.deepEqual((await t.request('GET', '/v1/me', { token: personal })).body.data.limits.tokens, { used: 1, max: 5 })
  })
})
