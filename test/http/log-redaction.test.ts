import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { createLogger, logRequestLine, redactUrl, scrubLine } from '../../src/observability/logger.ts'
import { SESSION_COOKIE } from '../../src/dashboard/scope.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/dashboard.ts'
import { solid } from '../media/images.ts'
import { authorizationUrl, REDIRECT, tokenRequest, tokensFor } from '../oauth/helpers.ts'

/** Every line the app logs, kept for grepping. */
function logCollector() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString())
      done()
    },
  })
  return {
    stream,
    text: () => lines.join(''),
    /** The one-per-request access line (our onResponse hook) of the request sent with this x-request-id. */
    requestLine: (id: string) => {
      const found = lines.flatMap((l) => l.split('\n')).filter((l) => l.includes(`"reqId":"${id}"`) && l.includes('"msg":"request"'))
      assert.equal(found.length, 1, `one access line for request ${id}`)
      return { raw: found[0], fields: JSON.parse(found[0]) as Record<string, unknown> }
    },
  }
}

describe(`Logs carry no secrets (${STORE})`, () => {
  let t: TestApp
  const log = logCollector()
  const secrets: Record<string, string> = {}
  before(async () => {
    t = await startApp({ LOG_LEVEL: 'trace' }, { logTo: log.stream })
  })
  after(() => t.close())

  it('after a run of API calls, uploads, sign-ins and failures, no token, upload URL, password or session id is in the log', async () => {
    const { user, token } = await makeAccount(t)
    secrets.apiToken = token
    secrets.unknownToken = `slp_${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x').slice(0, 40)}`
    const png = await solid(20, 20, 'png')

    assert.equal((await t.request('GET', '/v1/me', { token, headers: { 'x-request-id': 'me-with-personal-token' } })).status, 200)
    assert.equal((await t.request('GET', '/v1/me', { token: secrets.unknownToken })).status, 401)
    await fetch(`${t.url}/v1/me?access_token=${token}&code=oauth-code-0123456789&state=visible`)
    secrets.queryCode = 'oauth-code-0123456789'

    // Upload URLs: one refused (the grant is handed back, so its URL stays good), one used, one hit with a wrong method.
    for (const outcome of ['refused', 'stored', 'wrong method']) {
      const grant = await t.request('POST', '/v1/files/upload-url', { token })
      const url: string = grant.body.data.upload_url
      secrets[`upload ${outcome}`] = url.slice(url.lastIndexOf('/') + 1)
      const method = outcome === 'wrong method' ? 'DELETE' : 'PUT'
      const res = await fetch(url, { method, body: outcome === 'refused' ? 'not an image' : png })
      assert.equal(res.status, outcome === 'stored' ? 201 : outcome === 'refused' ? 422 : 404)
    }

    // The dashboard: a failed and a successful sign-in, then a page with the session.
    const visitor = Visitor.of(t)
    const wrong = await visitor.submit('/login', { email: user.email, password: 'wrong password 9f8e7d' })
    assert.equal(wrong.status, 401)
    secrets.wrongPassword = 'wrong password 9f8e7d'
    await visitor.signIn(user.email)
    secrets.password = 'correct horse battery'
    const cookie = visitor.cookies.get(SESSION_COOKIE)
    assert.ok(cookie, 'signed in')
    secrets.sessionCookie = decodeURIComponent(cookie)
    // @fastify/session's cookie is `<session id>.<signature>`, both secret.
    secrets.sessionId = secrets.sessionCookie.split('.')[0]
    assert.equal((await visitor.get('/settings')).status, 200)

    // OAuth: consent, a code, tokens, a refresh, a revocation and a call with the access token.
    const { c, tokens } = await tokensFor(t)
    secrets.accessToken = tokens.access_token
    secrets.refreshToken = String(tokens.refresh_token)
    assert.equal((await t.request('GET', '/v1/me', { token: tokens.access_token, headers: { 'x-request-id': 'me-with-oauth-token' } })).status, 200)
    const a = await authorizationUrl(t, c, { scope: 'profile:read' })
    const code = new URL(String((await c.visitor.get(a.url.pathname + a.url.search)).location)).searchParams.get('code')
    secrets.oauthCode = String(code)
    const swapped = await tokenRequest(t, {
      grant_type: 'authorization_code',
      code: String(code),
      redirect_uri: REDIRECT,
      client_id: c.client.client_id,
      code_verifier: a.verifier,
    })
    secrets.secondAccessToken = String(swapped.body.access_token)
    const refreshed = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: secrets.refreshToken, client_id: c.client.client_id })
    secrets.refreshedToken = String(refreshed.body.refresh_token)
    assert.equal((await t.request('GET', '/v1/me', { token: String(refreshed.body.access_token) })).status, 200)
    await fetch(`${t.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: secrets.refreshedToken, client_id: c.client.client_id }).toString(),
    })

    const text = log.text()
    // Audit: the line of a request authorised through OAuth names its client; a personal token's does not.
    const oauthCall = log.requestLine('me-with-oauth-token')
    assert.equal(oauthCall.fields.url, '/v1/me')
    assert.equal(oauthCall.fields.status, 200)
    assert.equal(oauthCall.fields.clientId, c.client.client_id)
    assert.ok(!oauthCall.raw.includes(tokens.access_token), 'the line names the client, never the token')
    assert.equal(log.requestLine('me-with-personal-token').fields.clientId, undefined)
    assert.ok(text.includes('/-/upload/[redacted]'), 'the upload requests were logged, without their tokens')
    assert.ok(text.includes('"status":401'), 'the refused token was logged, without itself')
    for (const [what, secret] of Object.entries(secrets)) {
      assert.ok(!text.includes(secret), `${what} (${secret}) is in the log`)
    }
  })

  it("redacts secret fields at the top of a logged object, one level down and inside a logged error, without touching the caller's objects", () => {
    const collected = logCollector()
    const log = createLogger('info', collected.stream)
    const input = { name: 'Jane', password: 'p-top-secret-1', code_verifier: 'v-secret-2' }
    const err = Object.assign(new Error('refused'), { body: 'b-secret-3' })
    log.child({ reqId: 'r1' }).info({ input, err, token: 'sl-secret-4', kept: { status: 200 } }, 'call')
    const line = collected.text()
    for (const secret of ['p-top-secret-1', 'v-secret-2', 'b-secret-3', 'sl-secret-4']) assert.ok(!line.includes(secret), `${secret} is in ${line}`)
    const fields = JSON.parse(line)
    assert.equal(fields.input.name, 'Jane')
    assert.equal(fields.input.password, '[redacted]')
    assert.equal(fields.err.message, 'refused')
    assert.equal(fields.err.body, '[redacted]')
    assert.deepEqual(fields.kept, { status: 200 })
    assert.equal(input.password, 'p-top-secret-1', "the caller's object is left as it was")
    assert.equal(err.body, 'b-secret-3')
  })

  it("writes the request line with its bindings, the URL's credentials redacted", () => {
    const collected = logCollector()
    const request = createLogger('info', collected.stream).child({ reqId: 'r-"1' }).child({ clientId: 'c1' })
    logRequestLine(request, 'POST', '/-/upload/abc.123.def?token=sl_p_abcdefghijklmnopqrstuvwx&q=a"b\\', 201, 12)
    const fields = JSON.parse(collected.text())
    assert.deepEqual(
      { reqId: fields.reqId, clientId: fields.clientId, method: fields.method, url: fields.url, status: fields.status, ms: fields.ms, msg: fields.msg },
      { reqId: 'r-"1', clientId: 'c1', method: 'POST', url: '/-/upload/[redacted]?token=[redacted]&q=a"b\\', status: 201, ms: 12, msg: 'request' },
    )
    // Below info, nothing is written.
    logRequestLine(createLogger('warn', collected.stream), 'GET', '/', 200, 1)
    assert.equal(collected.text().trimEnd().split('\n').length, 1)
  })

  it('redacts upload tokens and credential parameters from URLs, and leaves the rest', () => {
    assert.equal(redactUrl('/-/upload/abc.123.def?x=1'), '/-/upload/[redacted]?x=1')
    assert.equal(redactUrl('/oauth/callback?code=abc&state=s&Access_Token=t'), '/oauth/callback?code=[redacted]&state=s&Access_Token=[redacted]')
    assert.equal(redactUrl('/v1/profiles/jane?include=slots'), '/v1/profiles/jane?include=slots')
  })

  it('redacts bearer credentials of any shape in a line, but not the placeholder our messages name', () => {
    assert.equal(scrubLine('{"msg":"got Bearer abc.DEF-123 from x"}'), '{"msg":"got Bearer [redacted] from x"}')
    assert.equal(scrubLine('{"authorization":"bearer xyz"}'), '{"authorization":"bearer [redacted]"}')
    const advice = '{"msg":"Send a token as Authorization: Bearer <token>; issue one at /settings/tokens, or \\"Bearer <token>\\"."}'
    assert.equal(scrubLine(advice), advice)
    assert.equal(scrubLine('Bearer <token>'), 'Bearer <token>')
    // A credential that merely starts like the placeholder is still a credential.
    assert.equal(scrubLine('Bearer <token>s3cret'), 'Bearer [redacted]')
  })
})
