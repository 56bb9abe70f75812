import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import * as oauth from 'oauth4webapi'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { oauthGrants } from '../../src/oauth/grants.ts'
import { freshEmail, Visitor } from '../helpers/dashboard.ts'
import { approve, authorizationUrl, connect, discover, exchange, insecure, REDIRECT, register, tokenRequest, tokensFor } from './helpers.ts'

const me = (t: TestApp, token: string) => t.request('GET', '/v1/me', { token })

describe(`OAuth 2.1 authorization server (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  describe('metadata', () => {
    it('publishes RFC 8414 metadata at the well-known address and its path-suffixed form', async () => {
      const as = await discover(t)
      assert.equal(as.issuer, t.url)
      assert.equal(as.authorization_endpoint, `${t.url}/oauth/authorize`)
      assert.equal(as.token_endpoint, `${t.url}/oauth/token`)
      assert.equal(as.registration_endpoint, `${t.url}/oauth/register`)
      assert.equal(as.revocation_endpoint, `${t.url}/oauth/revoke`)
      assert.deepEqual(as.code_challenge_methods_supported, ['S256'])
      assert.deepEqual(as.grant_types_supported, ['authorization_code', 'refresh_token'])
      assert.deepEqual(as.token_endpoint_auth_methods_supported, ['none'])
      assert.deepEqual(as.scopes_supported, ['profile:read', 'profile:write'])
      assert.equal(as.client_id_metadata_document_supported, true)
      assert.equal(as.authorization_response_iss_parameter_supported, true)
      const suffixed = await fetch(`${t.url}/.well-known/oauth-authorization-server/mcp`)
      assert.deepEqual(await suffixed.json(), as)
    })

    it('describes the API and the connector as protected resources (RFC 9728)', async () => {
      for (const audience of ['v1', 'mcp']) {
        const res = await fetch(`${t.url}/.well-known/oauth-protected-resource/${audience}`)
        const doc = (await res.json()) as Record<string, unknown>
        assert.equal(doc.resource, `${t.url}/${audience}`)
        assert.deepEqual(doc.authorization_servers, [t.url])
      }
    })

    it('answers 401s of /v1 with a challenge naming the resource metadata, and invalid_token when one was sent', async () => {
      const none = await t.request('GET', '/v1/me')
      assert.equal(none.status, 401)
      assert.match(String(none.headers['www-authenticate']), new RegExp(`resource_metadata="${t.url}/.well-known/oauth-protected-resource/v1"`))
      assert.doesNotMatch(String(none.headers['www-authenticate']), /invalid_token/)
      const bad = await me(t, `slo_${'x'.repeat(40)}`)
      assert.equal(bad.status, 401)
      assert.match(String(bad.headers['www-authenticate']), /error="invalid_token"/)
    })
  })

  describe('registration', () => {
    it('registers a public client with loopback, https and private-use redirects', async () => {
      const as = await discover(t)
      const client = await register(as, { redirect_uris: [REDIRECT, 'https://app.example/cb', 'com.example.app:/oauth'] })
      assert.match(client.client_id, /^slc_/)
      assert.equal(client.token_endpoint_auth_method, 'none')
    })

    for (const [uri, why] of [
      ['http://app.example/cb', 'plain http off loopback'],
      ['javascript:alert(1)', 'a script scheme'],
      ['https://app.example/cb#frag', 'a fragment'],
      ['/relative', 'a relative URI'],
    ]) {
      it(`refuses ${why} with invalid_redirect_uri and registers nothing`, async () => {
        const res = await fetch(`${t.url}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: [uri] }),
        })
        assert.equal(res.status, 400)
        assert.equal(((await res.json()) as { error: string }).error, 'invalid_redirect_uri')
      })
    }

    it('refuses a confidential client and a giant body', async () => {
      const secret = await fetch(`${t.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' }),
      })
      assert.equal(secret.status, 400)
      assert.equal(((await secret.json()) as { error: string }).error, 'invalid_client_metadata')
      const giant = await fetch(`${t.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'x'.repeat(100_000) }),
      })
      assert.equal(giant.status, 413)
    })
  })

  describe('authorization code with PKCE', () => {
    it('runs the whole flow: consent, tokens, /v1/me with the granted abilities, refresh, revoke', async () => {
      const c = await connect(t)
      const a = await authorizationUrl(t, c)
      const callback = await approve(c.visitor, a.url)
      assert.equal(callback.searchParams.get('iss'), t.url)
      assert.equal(callback.searchParams.get('state'), a.state)
      const tokens = await exchange(c, callback, a)
      assert.match(tokens.access_token, /^slo_/)
      assert.match(String(tokens.refresh_token), /^slr_/)
      assert.equal(tokens.expires_in, 3600)
      const who = await me(t, tokens.access_token)
      assert.equal(who.status, 200)
      assert.deepEqual(who.body.data.abilities, ['profile:read', 'profile:write'])
      assert.equal(who.body.data.canWrite, true)

      const refreshed = await oauth.processRefreshTokenResponse(
        c.as,
        c.client,
        await oauth.refreshTokenGrantRequest(c.as, c.client, oauth.None(), String(tokens.refresh_token), insecure),
      )
      assert.notEqual(refreshed.refresh_token, tokens.refresh_token)
      assert.equal((await me(t, refreshed.access_token)).status, 200)

      await oauth.processRevocationResponse(await oauth.revocationRequest(c.as, c.client, oauth.None(), String(refreshed.refresh_token), insecure))
      assert.equal((await me(t, refreshed.access_token)).status, 401, 'revoking the refresh token ends its family')
      assert.equal((await me(t, tokens.access_token)).status, 401)
    })

    it('turns a read-only grant into a read-only token: writes are 403 insufficient_scope', async () => {
      const { tokens } = await tokensFor(t, { scope: 'profile:read' })
      assert.equal(tokens.scope, 'profile:read')
      assert.equal((await me(t, tokens.access_token)).body.data.canWrite, false)
      const write = await t.request('POST', '/v1/profiles', { token: tokens.access_token, body: { login: 'readonly.grant' } })
      assert.equal(write.status, 403)
      assert.match(String(write.headers['www-authenticate']), /error="insufficient_scope", scope="profile:write"/)
    })

    it('widens profile:write to both scopes', async () => {
      const { tokens } = await tokensFor(t, { scope: 'profile:write' })
      assert.equal(tokens.scope, 'profile:read profile:write')
    })

    it('remembers consent: the same client asking for no more skips the page', async () => {
      const c = await connect(t)
      await approve(c.visitor, (await authorizationUrl(t, c)).url)
      const again = await authorizationUrl(t, c, { scope: 'profile:read' })
      const res = await c.visitor.get(again.url.pathname + again.url.search)
      assert.equal(res.status, 303)
      assert.match(String(res.location), /^http:\/\/127\.0\.0\.1:43210\/callback\?code=/)
    })

    it('sends a signed-out user to sign in and back to the same request', async () => {
      const c = await connect(t)
      const a = await authorizationUrl(t, c)
      const res = await Visitor.of(t).get(a.url.pathname + a.url.search)
      assert.equal(res.status, 303)
      const next = new URL(String(res.location), t.url)
      assert.equal(next.pathname, '/login')
      assert.equal(next.searchParams.get('next'), a.url.pathname + a.url.search)
    })

    it('sends the user’s refusal back as access_denied with state and iss', async () => {
      const c = await connect(t)
      const a = await authorizationUrl(t, c)
      const back = await approve(c.visitor, a.url, 'deny')
      assert.equal(back.searchParams.get('error'), 'access_denied')
      assert.equal(back.searchParams.get('state'), a.state)
      assert.equal(back.searchParams.get('iss'), t.url)
    })

    it('shows a page, never a redirect, for an unknown client or an unregistered redirect', async () => {
      const c = await connect(t)
      const requests: Record<string, string>[] = [{ client_id: 'slc_nope' }, { redirect_uri: 'https://evil.example/cb' }, { redirect_uri: 'http://127.0.0.1:43210/other' }]
      for (const extra of requests) {
        const a = await authorizationUrl(t, c, extra)
        const res = await c.visitor.get(a.url.pathname + a.url.search)
        assert.equal(res.status, 400, JSON.stringify(extra))
        assert.equal(res.location, null)
      }
    })

    it('lets a loopback redirect use any port (RFC 8252)', async () => {
      const c = await connect(t)
      const a = await authorizationUrl(t, c, { redirect_uri: 'http://127.0.0.1:5555/callback' })
      const back = await approve(c.visitor, a.url)
      assert.equal(back.port, '5555')
    })

    for (const [extra, error] of [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: '' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'admin' }, 'invalid_scope'],
      [{ resource: 'https://elsewhere.example/api' }, 'invalid_target'],
    ] as const) {
      it(`redirects ${JSON.stringify(extra)} back with ${error}`, async () => {
        const c = await connect(t)
        const a = await authorizationUrl(t, c, extra)
        const res = await c.visitor.get(a.url.pathname + a.url.search)
        assert.equal(res.status, 303)
        const back = new URL(String(res.location))
        assert.equal(back.origin + back.pathname, REDIRECT)
        assert.equal(back.searchParams.get('error'), error)
        assert.equal(back.searchParams.get('state'), a.state)
      })
    }
  })

  describe('token endpoint refusals', () => {
    const codeFor = async () => {
      const c = await connect(t)
      const a = await authorizationUrl(t, c)
      const back = await approve(c.visitor, a.url)
      return { c, a, code: String(back.searchParams.get('code')) }
    }
    const grant = (x: Awaited<ReturnType<typeof codeFor>>, overrides: Record<string, string> = {}) => ({
      grant_type: 'authorization_code',
      code: x.code,
      redirect_uri: REDIRECT,
      client_id: x.c.client.client_id,
      code_verifier: x.a.verifier,
      ...overrides,
    })

    it('refuses a wrong or missing verifier and a mismatched redirect with invalid_grant, issuing nothing', async () => {
      const x = await codeFor()
      assert.equal((await tokenRequest(t, grant(x, { code_verifier: 'a'.repeat(43) }))).body.error, 'invalid_grant')
      assert.equal((await tokenRequest(t, grant(x, { redirect_uri: 'http://127.0.0.1:1/other' }))).body.error, 'invalid_grant')
      const { code_verifier: _, ...noVerifier } = grant(x)
      assert.equal((await tokenRequest(t, noVerifier)).body.error, 'invalid_request')
      const ok = await tokenRequest(t, grant(x))
      assert.equal(ok.status, 200, 'the refusals did not use the code up')
      assert.equal(ok.headers.get('cache-control'), 'no-store')
    })

    it('refuses a code for another client', async () => {
      const x = await codeFor()
      const other = await register(x.c.as)
      const res = await tokenRequest(t, grant(x, { client_id: other.client_id }))
      assert.equal(res.body.error, 'invalid_grant')
    })

    it('refuses an expired code', async () => {
      const x = await codeFor()
      await t.ctx.db.updateTable('oauth_codes').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute()
      assert.equal((await tokenRequest(t, grant(x))).body.error, 'invalid_grant')
    })

    it('treats a reused code as leaked: refused, and what it issued is revoked', async () => {
      const x = await codeFor()
      const first = await tokenRequest(t, grant(x))
      assert.equal(first.status, 200)
      const second = await tokenRequest(t, grant(x))
      assert.equal(second.body.error, 'invalid_grant')
      assert.equal((await me(t, String(first.body.access_token))).status, 401)
    })

    it('refuses a refresh token of another client', async () => {
      const { tokens } = await tokensFor(t)
      const { c } = await tokensFor(t)
      const res = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token), client_id: c.client.client_id })
      assert.equal(res.body.error, 'invalid_grant')
    })

    it('allows two racing refreshes within the grace, and ends the grant on a replay after it', async () => {
      const { c, tokens } = await tokensFor(t)
      const form = { grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token), client_id: c.client.client_id }
      const [a, b] = await Promise.all([tokenRequest(t, form), tokenRequest(t, form)])
      assert.deepEqual([a.status, b.status], [200, 200])
      // Past the grace: move the rotation back in the store rather than waiting.
      await t.ctx.db.updateTable('tokens').set({ rotated_at: new Date(Date.now() - 60_000).toISOString() }).where('rotated_at', 'is not', null).execute()
      const replay = await tokenRequest(t, form)
      assert.equal(replay.body.error, 'invalid_grant')
      assert.equal((await me(t, String(a.body.access_token))).status, 401, 'every token of the grant is gone')
      assert.equal((await me(t, String(b.body.access_token))).status, 401)
    })

    it('refuses unknown grant types and JSON bodies', async () => {
      assert.equal((await tokenRequest(t, { grant_type: 'password' })).body.error, 'unsupported_grant_type')
      const json = await fetch(new URL('/oauth/token', t.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":"authorization_code","code":{}}' })
      assert.equal(json.status, 400)
    })
  })

  describe('audiences (RFC 8707)', () => {
    it('keeps a token issued for the connector out of the REST API', async () => {
      const { tokens } = await tokensFor(t, { resource: `${t.url}/mcp` })
      const res = await me(t, tokens.access_token)
      assert.equal(res.status, 401)
      assert.match(String(res.headers['www-authenticate']), /invalid_token/)
    })

    it('accepts a token issued for the API base', async () => {
      const { tokens } = await tokensFor(t, { resource: `${t.url}/v1` })
      assert.equal((await me(t, tokens.access_token)).status, 200)
    })
  })

  describe('housekeeping', () => {
    it('purges registrations never used within a day, and expired OAuth tokens, keeping what is in use', async () => {
      const as = await discover(t)
      const stale = await register(as)
      const { c, tokens } = await tokensFor(t)
      const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString()
      await t.ctx.db.updateTable('oauth_clients').set({ created_at: twoDaysAgo }).where('client_id', 'in', [stale.client_id, c.client.client_id]).execute()
      await t.ctx.db.updateTable('tokens').set({ expires_at: twoDaysAgo }).where('kind', '=', 'access').execute()
      await oauthGrants.purge(t.ctx)
      const left = await t.ctx.db.selectFrom('oauth_clients').select('client_id').execute()
      assert.ok(!left.some((r) => r.client_id === stale.client_id), 'the never-used registration is gone')
      assert.ok(left.some((r) => r.client_id === c.client.client_id), 'the client with a grant stays')
      const access = await t.ctx.db.selectFrom('tokens').select('id').where('kind', '=', 'access').execute()
      assert.equal(access.length, 0)
      const refreshed = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token), client_id: c.client.client_id })
      assert.equal(refreshed.status, 200, 'the live refresh token still works')
    })
  })

  describe('connected apps and personal tokens', () => {
    it('lists the app in /settings/apps; Disconnect kills its tokens on the next request', async () => {
      const { c, tokens } = await tokensFor(t)
      const page = await c.visitor.get('/settings/apps')
      assert.match(page.text, /Test agent/)
      assert.match(page.text, /profile:read, profile:write/)
      const grantId = /action="\/settings\/apps\/(\d+)\/disconnect"/.exec(page.text)?.[1]
      assert.ok(grantId)
      const res = await c.visitor.submit('/settings/apps', {}, `/settings/apps/${grantId}/disconnect`)
      assert.equal(res.status, 303)
      assert.equal((await me(t, tokens.access_token)).status, 401)
      const refresh = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token), client_id: c.client.client_id })
      assert.equal(refresh.body.error, 'invalid_grant')
    })

    it('answers 404 when another person posts Disconnect for a grant, and leaves its tokens and codes alone', async () => {
      const { c, tokens } = await tokensFor(t)
      const pending = await authorizationUrl(t, c)
      // Consent is remembered, so the second authorization answers with the code at once.
      const again = await c.visitor.get(pending.url.pathname + pending.url.search)
      assert.ok(again.location?.startsWith(REDIRECT), `expected a redirect with a code, got ${again.status}`)
      const callback = new URL(String(again.location))
      const grantId = /action="\/settings\/apps\/(\d+)\/disconnect"/.exec((await c.visitor.get('/settings/apps')).text)?.[1]
      assert.ok(grantId)
      const stranger = Visitor.of(t)
      await stranger.register({ email: freshEmail() })
      assert.equal((await stranger.submit('/settings/apps', {}, `/settings/apps/${grantId}/disconnect`)).status, 404)
      assert.equal((await me(t, tokens.access_token)).status, 200)
      const later = await exchange(c, callback, pending)
      assert.ok(later.access_token, 'the pending code still exchanges')
    })

    it('keeps OAuth tokens out of the personal token list and its limit of 5', async () => {
      const { c } = await tokensFor(t)
      const page = await c.visitor.get('/settings/tokens')
      assert.match(page.text, /Your tokens \(0 of 5\)/)
    })
  })
})

describe(`OAuth clients identified by a metadata document (${STORE})`, () => {
  let t: TestApp
  let host: Server
  let base: string
  let served = 0
  const documents = new Map<string, () => unknown>()

  before(async () => {
    // A fake client's web server on 127.0.0.1, let through the SSRF guard by the test configuration only.
    host = createServer((req, res) => {
      const doc = documents.get(req.url ?? '')
      served++
      if (!doc) return void res.writeHead(404).end()
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' }).end(JSON.stringify(doc()))
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

  it('fetches the document, checks its client_id and redirect, and caches it per Cache-Control', async () => {
    const clientId = `${base}/agent.json`
    documents.set('/agent.json', () => ({ client_id: clientId, client_name: 'Metadata agent', redirect_uris: [REDIRECT] }))
    const visitor = Visitor.of(t)
    await visitor.register({ email: `cimd.${Date.now()}@example.test` })
    const a = await authorizationUrl(t, { client: { client_id: clientId } as oauth.Client })
    const before = served
    const back = await approve(visitor, a.url)
    assert.ok(back.searchParams.get('code'))
    const apps = await visitor.get('/settings/apps')
    assert.match(apps.text, /Metadata agent/)
    assert.ok(apps.text.includes(clientId))
    const again = (await authorizationUrl(t, { client: { client_id: clientId } as oauth.Client })).url
    assert.equal((await visitor.get(again.pathname + again.search)).status, 303, 'approved before: straight back with a code')
    assert.equal(served - before, 1, 'the second request used the cached document')
  })

  it('shows a page for a document naming another client_id, or a redirect it does not list', async () => {
    documents.set('/liar.json', () => ({ client_id: 'https://someone-else.example/x.json', redirect_uris: [REDIRECT] }))
    documents.set('/narrow.json', () => ({ client_id: `${base}/narrow.json`, redirect_uris: ['http://127.0.0.1:1/only-this'] }))
    const visitor = Visitor.of(t)
    await visitor.register({ email: `cimd2.${Date.now()}@example.test` })
    for (const path of ['/liar.json', '/narrow.json', '/missing.json']) {
      const a = await authorizationUrl(t, { client: { client_id: `${base}${path}` } as oauth.Client })
      const res = await visitor.get(a.url.pathname + a.url.search)
      assert.equal(res.status, 400, path)
      assert.equal(res.location, null)
    }
  })

  it('refuses a document on a private address before any connection', async () => {
    const visitor = Visitor.of(t)
    await visitor.register({ email: `cimd3.${Date.now()}@example.test` })
    const before = served
    for (const clientId of ['https://127.0.0.1:4443/client.json', 'https://10.0.0.1/client.json', 'http://app.example/client.json']) {
      const a = await authorizationUrl(t, { client: { client_id: clientId } as oauth.Client })
      const res = await visitor.get(a.url.pathname + a.url.search)
      assert.equal(res.status, 400, clientId)
      assert.match(res.text, /could not be fetched|must use https/)
    }
    assert.equal(served, before)
  })

  it('counts client_id URLs never seen before against the registration limit per address', async () => {
    const limited = await startApp({ OAUTH_METADATA_ALLOW_HOSTS: new URL(base).host, RATE_LIMIT_ADDRESS_PER_MINUTE: '60' })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 11; i++) {
        const a = await authorizationUrl(limited, { client: { client_id: `${base}/unknown-${i}.json` } as oauth.Client })
        statuses.push((await fetch(a.url, { redirect: 'manual' })).status)
      }
      assert.deepEqual(statuses, [...Array(10).fill(400), 429], 'ten fetches (documents missing: 400), then refused before fetching')
      const registered = await fetch(`${limited.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT] }),
      })
      assert.equal(registered.status, 429, 'registration shares the quota')
    } finally {
      await limited.close()
    }
  })

  it('describes both ways in via GET /v1/ and the OpenAPI security schemes', async () => {
    const index = await t.request('GET', '/v1/')
    const auth = index.body.data.authentication
    assert.equal(auth.tokenPrefix, 'slp_')
    assert.equal(auth.oauth.authorizationServer, `${t.url}/.well-known/oauth-authorization-server`)
    assert.equal(auth.oauth.protectedResource, `${t.url}/.well-known/oauth-protected-resource/v1`)
    assert.equal(auth.mcp.url, `${t.url}/mcp`)
  })
})
