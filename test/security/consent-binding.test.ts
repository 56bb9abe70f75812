import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import type * as oauth from 'oauth4webapi'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import type { Visitor } from '../helpers/dashboard.ts'
import { approve, authorizationUrl, connect, REDIRECT, register } from '../oauth/helpers.ts'

const OTHER = 'https://app.example/second-callback'

describe(`remembered consent is bound to client, redirect_uri, resource and scopes (${STORE})`, () => {
  let t: TestApp
  let host: Server
  let base: string
  let redirects = [REDIRECT]
  before(async () => {
    host = createServer((req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' })
        .end(JSON.stringify({ client_id: `${base}${req.url}`, client_name: 'Doc agent', redirect_uris: redirects }))
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const address = host.address()
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    t = await startApp({ OAUTH_METADATA_ALLOW_HOSTS: new URL(base).host })
  })
  after(async () => {
    host.close()
    await t.close()
  })

  /** What the browser gets for this request: 303 (remembered, straight back) or 200 (asked). */
  const outcome = async (v: Visitor, client: oauth.Client, extra: Record<string, string> = {}) => {
    const a = await authorizationUrl(t, { client }, extra)
    return (await v.get(a.url.pathname + a.url.search)).status
  }

  it('asks again for another redirect URI of the same client, and for another resource', async () => {
    const c = await connect(t)
    const client = await register(c.as, { redirect_uris: [REDIRECT, OTHER] })
    await approve(c.visitor, (await authorizationUrl(t, { client }, { resource: `${t.url}/mcp` })).url)
    assert.equal(await outcome(c.visitor, client, { resource: `${t.url}/mcp` }), 303, 'the same request is remembered')
    assert.equal(
      await outcome(c.visitor, client, { resource: `${t.url}/mcp`, redirect_uri: 'http://127.0.0.1:5555/callback' }),
      303,
      'a loopback port of the moment is the same redirect',
    )
    assert.equal(await outcome(c.visitor, client, { resource: `${t.url}/mcp`, redirect_uri: OTHER }), 200, 'another redirect URI: asked')
    assert.equal(await outcome(c.visitor, client, { resource: `${t.url}/v1` }), 200, 'another resource: asked')
    assert.equal(await outcome(c.visitor, client, { resource: `${t.url}/mcp`, scope: 'profile:read' }), 303, 'fewer scopes: remembered')
  })

  it('asks again for more scopes than were approved for that redirect and resource', async () => {
    const c = await connect(t)
    await approve(c.visitor, (await authorizationUrl(t, c, { scope: 'profile:read' })).url)
    assert.equal(await outcome(c.visitor, c.client, { scope: 'profile:read' }), 303)
    assert.equal(await outcome(c.visitor, c.client, { scope: 'profile:write' }), 200)
  })

  it('asks again when a metadata-document client changes its redirect_uris', async () => {
    redirects = [REDIRECT]
    const client = { client_id: `${base}/changing.json` } as oauth.Client
    const c = await connect(t)
    await approve(c.visitor, (await authorizationUrl(t, { client })).url)
    assert.equal(await outcome(c.visitor, client), 303)
    redirects = [REDIRECT, 'https://new-owner.example/cb']
    // The cached document expires; the next request fetches the changed one.
    await t.ctx.db
      .updateTable('oauth_clients')
      .set({ metadata_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('client_id', '=', client.client_id)
      .execute()
    assert.equal(await outcome(c.visitor, client), 200, 'the redirect URIs the user saw are not those of now')
  })
})
