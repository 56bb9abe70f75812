import { createServer, type Server } from 'node:http'
import * as oauth from 'oauth4webapi'
import type { TestApp } from '../helpers/app.ts'
import { csrfOf, freshEmail, Visitor } from '../helpers/dashboard.ts'

export const insecure = { [oauth.allowInsecureRequests]: true }
export const REDIRECT = 'http://127.0.0.1:43210/callback'

/** What a stock OAuth client knows after discovery and registration. */
export interface Connected {
  as: oauth.AuthorizationServer
  client: oauth.Client
  visitor: Visitor
  email: string
}

export async function discover(t: TestApp): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(t.url)
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }))
}

export async function register(as: oauth.AuthorizationServer, metadata: Record<string, unknown> = {}): Promise<oauth.Client> {
  const res = await oauth.dynamicClientRegistrationRequest(
    as,
    { redirect_uris: [REDIRECT], client_name: 'Test agent', token_endpoint_auth_method: 'none', ...metadata },
    insecure,
  )
  return oauth.processDynamicClientRegistrationResponse(res)
}

/** A signed-in person, a discovered server and a registered client. */
export async function connect(t: TestApp): Promise<Connected> {
  const as = await discover(t)
  const client = await register(as)
  const visitor = Visitor.of(t)
  const email = freshEmail()
  await visitor.register({ email })
  return { as, client, visitor, email }
}

export interface Authorization {
  url: URL
  verifier: string
  state: string
}

export async function authorizationUrl(t: TestApp, c: { client: oauth.Client }, extra: Record<string, string> = {}): Promise<Authorization> {
  const verifier = oauth.generateRandomCodeVerifier()
  const state = oauth.generateRandomState()
  const url = new URL('/oauth/authorize', t.url)
  const params = {
    response_type: 'code',
    client_id: c.client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return { url, verifier, state }
}

/** The fields the consent page's forms would post, with its CSRF token, for `decision` (no second step). */
export async function consentForm(visitor: Visitor, url: URL, decision = 'approve'): Promise<Record<string, string>> {
  const page = await visitor.get(url.pathname + url.search)
  if (page.status !== 200) throw new Error(`consent page answered ${page.status} ${page.location ?? page.text.slice(0, 300)}`)
  const fields: Record<string, string> = { _csrf: csrfOf(page.text), decision }
  for (const m of page.text.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)) {
    // The request's own fields; the second step's forms also carry the decision and a passkey's answer.
    if (!['_csrf', 'decision', 'credential'].includes(m[1]))
      fields[m[1]] = m[2].replace(
        /&(amp|quot|#39|#96|lt|gt);/g,
        (_, e: string) => ({ amp: '&', quot: '"', '#39': "'", '#96': '`', lt: '<', gt: '>' })[e] as string,
      )
  }
  return fields
}

/** The person approves on the consent page; answers where the server sends the browser back. */
export async function approve(visitor: Visitor, url: URL, decision = 'approve'): Promise<URL> {
  const res = await visitor.post('/oauth/authorize', await consentForm(visitor, url, decision))
  if (res.status !== 303 || !res.location) throw new Error(`approval answered ${res.status}`)
  return new URL(res.location)
}

export async function exchange(c: Connected, callback: URL, a: Authorization) {
  const params = oauth.validateAuthResponse(c.as, c.client, callback, a.state)
  const res = await oauth.authorizationCodeGrantRequest(c.as, c.client, oauth.None(), params, REDIRECT, a.verifier, insecure)
  return oauth.processAuthorizationCodeResponse(c.as, c.client, res)
}

/** Discovery → registration → consent → tokens, as one call for the tests that start after it. */
export async function tokensFor(t: TestApp, extra: Record<string, string> = {}) {
  const c = await connect(t)
  const a = await authorizationUrl(t, c, extra)
  const tokens = await exchange(c, await approve(c.visitor, a.url), a)
  return { c, tokens }
}

/** The token endpoint called by hand, for the refusals oauth4webapi would not even send. */
export async function tokenRequest(t: TestApp, fields: Record<string, string>) {
  const res = await fetch(new URL('/oauth/token', t.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
  return { status: res.status, headers: res.headers, body: (await res.json()) as { error?: string; access_token?: string; refresh_token?: string } }
}

/**
 * An application's own loopback listener (RFC 8252), where the browser lands with the code: each
 * request's URL goes into `received`.
 */
export async function loopbackCallback(received: URL[]): Promise<{ server: Server; redirectUri: string }> {
  let redirectUri = ''
  const server = createServer((req, res) => {
    received.push(new URL(req.url ?? '/', redirectUri))
    res.end('You can close this window.')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  redirectUri = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/callback`
  return { server, redirectUri }
}
