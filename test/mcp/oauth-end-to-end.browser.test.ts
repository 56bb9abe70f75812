import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import type { Server } from 'node:http'
import { loopbackCallback } from '../oauth/helpers.ts'
import { after, before, describe, it } from 'node:test'
import {
  Client,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client'
import { type Browser, chromium } from 'playwright-core'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { freshEmail } from '../helpers/dashboard.ts'
import { callTool } from '../helpers/mcp.ts'

// Debian's chromium, never a downloaded browser; requests to anything but 127.0.0.1 are aborted.
const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
}

/** What a desktop agent keeps between runs, here in memory; the browser step is handed the URL. */
class MemoryProvider implements OAuthClientProvider {
  client: StoredOAuthClientInformation | undefined
  saved: StoredOAuthTokens | undefined
  verifier = ''
  discovery: OAuthDiscoveryState | undefined
  readonly expectedState = randomBytes(16).toString('base64url')
  readonly redirects: URL[] = []

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E agent',
      redirect_uris: [this.redirectUrl],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }
  }
  state() {
    return this.expectedState
  }
  clientInformation() {
    return this.client
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.client = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens
  }
  // Without this the SDK retries a revoked refresh token forever instead of asking anew.
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined
    if (scope === 'all' || scope === 'client') this.client = undefined
  }
  redirectToAuthorization(url: URL) {
    this.redirects.push(url)
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
  // Kept with the verifier so the SDK can check the callback leg talks to the same server.
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state
  }
  discoveryState() {
    return this.discovery
  }
}

describe(`MCP connector end to end: the SDK's OAuth client, consent in Chromium, tools, Disconnect (${STORE})`, () => {
  let t: TestApp
  let browser: Browser
  let callbackServer: Server
  let redirectUri: string
  const received: URL[] = []

  before(async () => {
    t = await startApp()
    browser = await chromium.launch(LAUNCH)
    ;({ server: callbackServer, redirectUri } = await loopbackCallback(received))
  })
  after(async () => {
    await browser?.close()
    callbackServer?.close()
    await t?.close()
  })

  it('discovers, registers, gets consent in the browser, builds a page and reads its statistics, and gets 401 once disconnected', async () => {
    const mcpUrl = new URL(`${t.url}/mcp`)
    const provider = new MemoryProvider(redirectUri)

    // Knowing only the /mcp address: 401 → resource metadata → AS metadata → registration → PKCE URL.
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })
    await assert.rejects(new Client({ name: 'slotline-e2e-agent', version: '1.0.0' }).connect(first), (e: Error) => e.name === 'UnauthorizedError')
    assert.ok(provider.client?.client_id, 'registered dynamically')
    const authorize = provider.redirects.at(-1)
    assert.ok(authorize, 'the SDK asked for the browser')
    assert.equal(authorize.origin, t.url)
    assert.equal(authorize.pathname, '/oauth/authorize')
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256')
    assert.equal(authorize.searchParams.get('resource'), mcpUrl.href)

    const context = await browser.newContext()
    await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()))
    const page = await context.newPage()
    await page.goto(authorize.href)
    assert.equal(new URL(page.url()).pathname, '/login')
    const next = new URL(page.url()).searchParams.get('next')
    await page.goto(`${t.url}/register?next=${encodeURIComponent(String(next))}`)
    await page.fill('input[name=name]', 'Ada')
    await page.fill('input[name=email]', freshEmail())
    await page.fill('input[name=password]', 'correct horse battery')
    await Promise.all([page.waitForLoadState(), page.click('button[type=submit]')])
    if (new URL(page.url()).pathname !== '/oauth/authorize') await page.goto(authorize.href)
    assert.match(String(await page.textContent('h1')), /E2E agent/)
    await Promise.all([page.waitForURL((u) => u.href.startsWith(redirectUri)), page.click('button[value=approve]')])
    const callback = received.at(-1)
    assert.ok(callback, 'the browser came back to the agent')
    assert.ok(callback.searchParams.get('code'))
    assert.equal(callback.searchParams.get('state'), provider.expectedState)

    await first.finishAuth(callback.searchParams)
    assert.ok(provider.saved?.access_token)
    const client = new Client({ name: 'slotline-e2e-agent', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))
    try {
      const login = `e2e.${Date.now().toString(36)}`
      const results = [
        await callTool(client, 'get_me'),
        await callTool(client, 'create_profile', { login }),
        await callTool(client, 'create_slots', { profileKey: login, slots: [{ type: 'button', data: { title: 'Tour dates', link: 'ada.example/tour' } }] }),
        await callTool(client, 'get_profile_markdown', { profileKey: login }),
        await callTool(client, 'get_profile_analytics', { profileKey: login, period: 'today' }),
      ]
      assert.deepEqual(
        results.filter((r) => r.isError).map((r) => r.content[0]?.text),
        [],
      )
      assert.equal(results[0].structuredContent.canWrite, true)
      assert.match(results[3].structuredContent.markdown, /Tour dates/)
      const stats = results[4].structuredContent.analytics
      assert.equal(stats.login, login)
      assert.deepEqual(
        stats.blocks.map((b: { title: string }) => b.title),
        ['Tour dates'],
      )

      // Disconnect in the dashboard, in the same browser: the next tool call is refused.
      await page.goto(`${t.url}/settings/apps`)
      assert.match(String(await page.textContent('main')), /E2E agent/)
      await Promise.all([page.waitForLoadState(), page.click('button:has-text("Disconnect")')])
      const revoked = String(provider.saved?.access_token)
      const redirectsBefore = provider.redirects.length
      await assert.rejects(callTool(client, 'get_me'), (e: Error) => e.name === 'UnauthorizedError')
      const raw = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${revoked}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      assert.equal(raw.status, 401)
      assert.match(raw.headers.get('www-authenticate') ?? '', /^Bearer .*resource_metadata=/)
      assert.equal(provider.redirects.length, redirectsBefore + 1, 'the SDK starts a fresh authorization: the old grant is gone')
    } finally {
      await client.close()
      await context.close()
    }
  })
})
