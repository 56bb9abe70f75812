import assert from 'node:assert/strict'
import { createServer, type Server, type ServerResponse } from 'node:http'
import { after, before, describe, it } from 'node:test'
import * as oauth from 'oauth4webapi'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { oauthGrants } from '../../src/authorization/grants.ts'
import { csrfOf, freshEmail, Visitor } from '../helpers/dashboard.ts'
import { when } from '../../src/dashboard/format.ts'
import { configureMedia } from '../../src/media/media.ts'
import { oauthRepository } from '../../src/store/oauth.ts'
import { usersRepository } from '../../src/store/users.ts'
import { approve, authorizationUrl, connect, consentForm, discover, exchange, insecure, REDIRECT, register, tokenRequest, tokensFor } from './helpers.ts'

const me = (t: TestApp, token: string) => t.request('GET', '/v1/me', { token })

/** A POST answered as raw text, for bodies oauth4webapi would not send and answers it would not show. */
async function rawPost(t: TestApp, path: string, contentType: string, body: string) {
  const res = await fetch(new URL(path, t.url), { method: 'POST', headers: { 'content-type': contentType }, body })
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() }
}

const count = async (t: TestApp, table: 'oauth_clients' | 'oauth_codes' | 'oauth_grants' | 'tokens') =>
  Number(
    (
      await t.ctx.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

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
      const clients = await count(t, 'oauth_clients')
      const giant = await rawPost(t, '/oauth/register', 'application/json', JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'x'.repeat(100_000) }))
      assert.equal(giant.status, 413)
      // Refused by the body limit before registration reads it: OAuth's error shape, not an HTML or envelope page.
      assert.match(String(giant.contentType), /^application\/json/)
      assert.deepEqual(JSON.parse(giant.text), { error: 'invalid_request', error_description: 'Request body is too large' })
      assert.equal(await count(t, 'oauth_clients'), clients, 'nothing was registered')
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

    it('refuses a consent form posted without or with a wrong CSRF token with 403, issuing no code', async () => {
      const c = await connect(t)
      const a = await authorizationUrl(t, c)
      const fields = await consentForm(c.visitor, a.url)
      const strangersToken = csrfOf((await Visitor.of(t).get('/register')).text)
      const { _csrf: _, ...withoutToken } = fields
      const codes = await count(t, 'oauth_codes')
      for (const [what, form] of [
        ['no token', withoutToken],
        ['a made-up token', { ...fields, _csrf: 'x'.repeat(fields._csrf.length) }],
        ['another session’s token', { ...fields, _csrf: strangersToken }],
      ] as const) {
        const res = await c.visitor.post('/oauth/authorize', form)
        assert.equal(res.status, 403, what)
        assert.equal(res.location, null, what)
        assert.match(res.text, /This form has expired/, what)
      }
      assert.equal(await count(t, 'oauth_codes'), codes, 'no code was issued')
      assert.equal((await c.visitor.get('/settings/apps')).text.includes('Test agent'), false, 'no grant was made')
      const approved = await c.visitor.post('/oauth/authorize', fields)
      assert.equal(approved.status, 303, 'the same form with its own token is approved')
      assert.ok(new URL(String(approved.location)).searchParams.get('code'))
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
      const requests: Record<string, string>[] = [
        { client_id: 'slc_nope' },
        { redirect_uri: 'https://evil.example/cb' },
        { redirect_uri: 'http://127.0.0.1:43210/other' },
      ]
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
      it(`redirects ${JSON.stringify(extra)} back with ${error} once the user has approved the client`, async () => {
        const c = await connect(t)
        await approve(c.visitor, (await authorizationUrl(t, c)).url)
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
    const codeFor = async (extra: Record<string, string> = {}) => {
      const c = await connect(t)
      const a = await authorizationUrl(t, c, extra)
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
      await t.ctx.db
        .updateTable('oauth_codes')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute()
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

    it('answers two racing refreshes within the grace with one same pair, and ends the grant on a replay after it', async () => {
      const { c, tokens } = await tokensFor(t)
      const form = { grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token), client_id: c.client.client_id }
      const [a, b] = await Promise.all([tokenRequest(t, form), tokenRequest(t, form)])
      assert.deepEqual([a.status, b.status], [200, 200])
      assert.equal(a.body.refresh_token, b.body.refresh_token, 'one family, never a fork')
      // Past the grace: move the rotation back in the store rather than waiting.
      await t.ctx.db
        .updateTable('tokens')
        .set({ rotated_at: new Date(Date.now() - 60_000).toISOString() })
        .where('rotated_at', 'is not', null)
        .execute()
      const replay = await tokenRequest(t, form)
      assert.equal(replay.body.error, 'invalid_grant')
      assert.equal((await me(t, String(a.body.access_token))).status, 401, 'every token of the grant is gone')
      assert.equal((await me(t, String(b.body.access_token))).status, 401)
    })

    it('refuses a resource other than the one bound to the code with invalid_target, issuing nothing (RFC 8707)', async () => {
      const x = await codeFor({ resource: `${t.url}/v1` })
      const tokens = await count(t, 'tokens')
      for (const resource of [`${t.url}/mcp`, t.url, 'https://elsewhere.example/api']) {
        const res = await tokenRequest(t, grant(x, { resource }))
        assert.equal(res.status, 400, resource)
        assert.equal(res.body.error, 'invalid_target', resource)
        assert.equal(res.body.access_token, undefined, resource)
      }
      assert.equal(await count(t, 'tokens'), tokens, 'no token was stored')
      const ok = await tokenRequest(t, grant(x, { resource: `${t.url}/v1` }))
      assert.equal(ok.status, 200, 'the refusals did not use the code up')
      assert.equal((await me(t, String(ok.body.access_token))).status, 200)
    })

    it('never puts the presented code or token in an error body of the token or revocation endpoint', async () => {
      const x = await codeFor()
      const other = await tokensFor(t)
      const refresh = String(other.tokens.refresh_token)
      const access = other.tokens.access_token
      const own = other.c.client.client_id
      const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
      const refusals: Array<[path: string, secret: string, contentType: string, body: string]> = [
        ['/oauth/token', x.code, 'application/x-www-form-urlencoded', form(grant(x, { code_verifier: 'a'.repeat(43) }))],
        ['/oauth/token', x.code, 'application/x-www-form-urlencoded', form(grant(x, { code_verifier: 'short' }))],
        ['/oauth/token', x.code, 'application/x-www-form-urlencoded', form(grant(x, { redirect_uri: 'http://127.0.0.1:1/other' }))],
        ['/oauth/token', x.code, 'application/x-www-form-urlencoded', form(grant(x, { client_id: own }))],
        ['/oauth/token', x.code, 'application/x-www-form-urlencoded', form(grant(x, { client_id: 'slc_unknown' }))],
        ['/oauth/token', x.code, 'application/x-www-form-urlencoded', form(grant(x, { resource: 'https://elsewhere.example/api' }))],
        ['/oauth/token', x.code, 'application/x-www-form-urlencoded', form(grant(x, { grant_type: 'password' }))],
        ['/oauth/token', x.code, 'application/x-www-form-urlencoded', `${form(grant(x))}&broken=%zz`],
        ['/oauth/token', x.code, 'application/json', JSON.stringify(grant(x))],
        ['/oauth/token', `${x.code}x`, 'application/x-www-form-urlencoded', form(grant(x, { code: `${x.code}x` }))],
        [
          '/oauth/token',
          refresh,
          'application/x-www-form-urlencoded',
          form({ grant_type: 'refresh_token', refresh_token: refresh, client_id: x.c.client.client_id }),
        ],
        [
          '/oauth/token',
          refresh,
          'application/x-www-form-urlencoded',
          form({ grant_type: 'refresh_token', refresh_token: refresh, client_id: own, scope: 'profile:read admin' }),
        ],
        [
          '/oauth/token',
          refresh,
          'application/x-www-form-urlencoded',
          form({ grant_type: 'refresh_token', refresh_token: refresh, client_id: own, resource: 'https://elsewhere.example/api' }),
        ],
        ['/oauth/token', access, 'application/x-www-form-urlencoded', form({ grant_type: 'refresh_token', refresh_token: access, client_id: own })],
        ['/oauth/revoke', refresh, 'application/x-www-form-urlencoded', form({ token: refresh, client_id: 'slc_unknown' })],
        ['/oauth/revoke', access, 'application/x-www-form-urlencoded', form({ token: access })],
        ['/oauth/revoke', access, 'application/json', JSON.stringify({ token: access, client_id: own })],
      ]
      for (const [path, secret, contentType, body] of refusals) {
        const res = await rawPost(t, path, contentType, body)
        const what = `${path} ${body.replace(secret, '<secret>')}`
        assert.ok(res.status >= 400 && res.status < 500, `${what}: ${res.status}`)
        assert.equal(typeof JSON.parse(res.text).error, 'string', what)
        assert.ok(!res.text.includes(secret) && !res.text.includes(secret.slice(0, 16)), `${what} answered ${res.text}`)
      }
      // A code presented twice: refused as leaked, and the answer names no code either.
      assert.equal((await tokenRequest(t, grant(x))).status, 200, 'the refusals left the code usable')
      const replay = await rawPost(t, '/oauth/token', 'application/x-www-form-urlencoded', form(grant(x)))
      assert.equal(JSON.parse(replay.text).error, 'invalid_grant')
      assert.ok(!replay.text.includes(x.code), replay.text)
    })

    it('refuses unknown grant types and JSON bodies', async () => {
      assert.equal((await tokenRequest(t, { grant_type: 'password' })).body.error, 'unsupported_grant_type')
      const json = await fetch(new URL('/oauth/token', t.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"grant_type":"authorization_code","code":{}}',
      })
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
      assert.ok(
        left.some((r) => r.client_id === c.client.client_id),
        'the client with a grant stays',
      )
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

    it('asks for consent again after the app is disconnected', async () => {
      const c = await connect(t)
      await approve(c.visitor, (await authorizationUrl(t, c)).url)
      const remembered = await authorizationUrl(t, c)
      assert.equal((await c.visitor.get(remembered.url.pathname + remembered.url.search)).status, 303, 'approved once: straight back with a code')
      const grantId = /action="\/settings\/apps\/(\d+)\/disconnect"/.exec((await c.visitor.get('/settings/apps')).text)?.[1]
      assert.ok(grantId)
      assert.equal((await c.visitor.submit('/settings/apps', {}, `/settings/apps/${grantId}/disconnect`)).status, 303)
      const again = await authorizationUrl(t, c)
      const res = await c.visitor.get(again.url.pathname + again.url.search)
      assert.equal(res.status, 200, `expected the consent page, got ${res.status} ${res.location}`)
      assert.equal(res.location, null)
      assert.match(res.text, /Allow <q>Test agent<\/q> to use your Slotline account\?/)
      assert.match(res.text, /<button type="submit" name="decision" value="approve">Approve<\/button>/)
    })

    it('shows Last used as Never until the app’s access token calls the API, then the time of that call', async () => {
      const { c, tokens } = await tokensFor(t)
      const lastUsed = async () => /<td data-label="Last used">([^<]*)<\/td>/.exec((await c.visitor.get('/settings/apps')).text)?.[1]
      assert.equal(await lastUsed(), 'Never', 'consent and the code exchange are not uses')
      assert.equal((await me(t, tokens.access_token)).status, 200)
      const grant = await t.ctx.db.selectFrom('oauth_grants').select('last_used_at').where('client_id', '=', c.client.client_id).executeTakeFirstOrThrow()
      assert.ok(grant.last_used_at, 'the call touched the grant')
      const user = (await usersRepository.findByEmail(t.ctx.db, c.email))!
      assert.equal(await lastUsed(), when(user, grant.last_used_at))
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
  /** Paths answered by hand: documents of a given size or pace. */
  const answers = new Map<string, (res: ServerResponse) => void>()

  before(async () => {
    // A fake client's web server on 127.0.0.1, let through the SSRF guard by the test configuration only.
    host = createServer((req, res) => {
      const doc = documents.get(req.url ?? '')
      served++
      const answer = answers.get(req.url ?? '')
      if (answer) return answer(res)
      if (!doc) return void res.writeHead(404).end()
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' }).end(JSON.stringify(doc()))
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const address = host.address()
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    t = await startApp({ OAUTH_METADATA_ALLOW_HOSTS: new URL(base).host })
  })
  after(async () => {
    // Ends the answers left hanging on purpose.
    host.closeAllConnections()
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

  /** A valid document padded with a field nobody reads, so its size is the only thing wrong with it. */
  const padded = (path: string, bytes: number) =>
    JSON.stringify({ client_id: `${base}${path}`, client_name: 'Padded agent', redirect_uris: [REDIRECT], padding: 'x'.repeat(bytes) })

  async function refusedAsTooLarge(path: string) {
    const visitor = Visitor.of(t)
    await visitor.register({ email: freshEmail() })
    const a = await authorizationUrl(t, { client: { client_id: `${base}${path}` } as oauth.Client })
    const res = await visitor.get(a.url.pathname + a.url.search)
    assert.equal(res.status, 400)
    assert.equal(res.location, null)
    assert.match(res.text, /could not be fetched: The download is larger than/)
    assert.equal(await oauthRepository.findClient(t.ctx.db, `${base}${path}`), undefined, 'no client was stored')
  }

  it('refuses a document that grows past 5 KiB as it arrives, and stores no client; one just under is accepted', async () => {
    answers.set('/streamed-big.json', (res) => {
      const body = padded('/streamed-big.json', 6000)
      // No Content-Length: the limit must be counted as the bytes arrive.
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write(body.slice(0, 3000))
      res.end(body.slice(3000))
    })
    await refusedAsTooLarge('/streamed-big.json')
    documents.set('/padded.json', () => JSON.parse(padded('/padded.json', 4000)))
    const visitor = Visitor.of(t)
    await visitor.register({ email: freshEmail() })
    const a = await authorizationUrl(t, { client: { client_id: `${base}/padded.json` } as oauth.Client })
    const under = await visitor.get(a.url.pathname + a.url.search)
    assert.equal(under.status, 200, 'the same document padded to under the limit gets the consent page')
    assert.match(under.text, /Padded agent/)
  })

  it(// This once took the whole process down: the refused body's error had no listener.
  'refuses a document declaring a Content-Length over 5 KiB, and stores no client', async () => {
    answers.set('/declared-big.json', (res) => {
      const body = padded('/declared-big.json', 6000)
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)
    })
    await refusedAsTooLarge('/declared-big.json')
  })

  it('refuses a document whose host answers too slowly, and stores no client', async () => {
    answers.set('/silent.json', () => {}) // never answers
    answers.set('/trickle.json', (res) => res.writeHead(200, { 'content-type': 'application/json' }).write('{"client_id":')) // never ends
    const visitor = Visitor.of(t)
    await visitor.register({ email: freshEmail() })
    const usual = t.ctx.media.urlTimeoutMs
    configureMedia(t.ctx, { urlTimeoutMs: 300 })
    try {
      for (const path of ['/silent.json', '/trickle.json']) {
        const a = await authorizationUrl(t, { client: { client_id: `${base}${path}` } as oauth.Client })
        const res = await visitor.get(a.url.pathname + a.url.search)
        assert.equal(res.status, 400, path)
        assert.equal(res.location, null, path)
        assert.match(res.text, /could not be fetched/, path)
        assert.equal(await oauthRepository.findClient(t.ctx.db, `${base}${path}`), undefined, path)
      }
    } finally {
      configureMedia(t.ctx, { urlTimeoutMs: usual })
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
