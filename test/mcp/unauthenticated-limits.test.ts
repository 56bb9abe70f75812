import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { loadConfig } from '../../src/config.ts'
import { addressRule } from '../../src/http/rate-limit-hooks.ts'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { useHandClock } from '../helpers/rate-limits.ts'

// The limits a fresh install runs with (TEST_ENV turns every one off).
const defaults = loadConfig({}).rateLimit
const DEFAULT_LIMITS = {
  RATE_LIMIT_PER_SECOND: String(defaults.perSecond),
  RATE_LIMIT_PER_MINUTE: String(defaults.perMinute),
  RATE_LIMIT_ANALYTICS_PER_MINUTE: String(defaults.analyticsPerMinute),
  RATE_LIMIT_MUSIC_PER_MINUTE: String(defaults.musicPerMinute),
  RATE_LIMIT_ADDRESS_PER_MINUTE: String(defaults.addressPerMinute),
  RATE_LIMIT_SIGN_IN_PER_10_MINUTES: String(defaults.signInPer10Minutes),
}

/** A host's OAuth side as SDK v1 drives it: registers once, then is sent to authorize. */
function hostProvider() {
  const state: { client?: any; authorizeUrl?: URL; verifier?: string } = {}
  const provider: OAuthClientProvider = {
    redirectUrl: 'http://127.0.0.1:43210/callback',
    clientMetadata: { redirect_uris: ['http://127.0.0.1:43210/callback'], client_name: 'Office host', token_endpoint_auth_method: 'none' },
    clientInformation: () => state.client,
    saveClientInformation: (info) => void (state.client = info),
    tokens: () => undefined,
    saveTokens: () => undefined,
    redirectToAuthorization: (url) => void (state.authorizeUrl = url),
    saveCodeVerifier: (v) => void (state.verifier = v),
    codeVerifier: () => state.verifier ?? '',
  }
  return { provider, state }
}

/** SDK v1's connect without a token; the statuses and challenges of /mcp it met along the way. */
async function connectWithoutToken(t: TestApp, provider: OAuthClientProvider) {
  const seen: Array<{ status: number; challenge: string | null }> = []
  const watched: typeof fetch = async (input, init) => {
    const res = await fetch(input, init)
    if (new URL(String(input instanceof Request ? input.url : input)).pathname === '/mcp')
      seen.push({ status: res.status, challenge: res.headers.get('www-authenticate') })
    return res
  }
  const client = new Client({ name: 'office-host', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { authProvider: provider, fetch: watched })
  const outcome = await client.connect(transport).then(
    () => 'connected',
    (err: Error) => err,
  )
  await client.close().catch(() => {})
  return { outcome, seen }
}

describe(`/mcp without a token at the default limits, through SDK v1's connect (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp(DEFAULT_LIMITS)
  })
  after(() => t.close())

  it('lets more first connects from one address start OAuth than the address budget of the API', async () => {
    useHandClock(t)
    const { provider, state } = hostProvider()
    for (let i = 0; i <= defaults.addressPerMinute; i++) {
      state.authorizeUrl = undefined
      const { outcome, seen } = await connectWithoutToken(t, provider)
      assert.ok(outcome instanceof Error && /Unauthorized/.test(outcome.message), `connect ${i + 1}: ${outcome}`)
      assert.deepEqual(
        seen.map((s) => s.status),
        [401],
        `connect ${i + 1}`,
      )
      assert.equal((state.authorizeUrl as URL | undefined)?.pathname, '/oauth/authorize', `connect ${i + 1} reached the authorization step`)
    }
  })

  it('answers past the token-less budget with a 429 that still carries the challenge with the resource metadata', async () => {
    useHandClock(t)
    const rule = addressRule(t.ctx, 'mcpChallenges')
    assert.ok(rule && rule.limit > defaults.addressPerMinute)
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    })
    const post = () =>
      fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: initialize,
      }).then((r) => r.status)
    for (let sent = 0; sent < rule.limit; sent += 50) {
      const statuses = await Promise.all(Array.from({ length: Math.min(50, rule.limit - sent) }, post))
      assert.ok(statuses.every((s) => s === 401))
    }
    const { provider } = hostProvider()
    const { outcome, seen } = await connectWithoutToken(t, provider)
    assert.ok(outcome instanceof Error, String(outcome))
    assert.match(outcome.message, /rate_limited/)
    assert.equal(seen[0].status, 429)
    assert.ok(seen[0].challenge?.includes(`resource_metadata="${t.url}/.well-known/oauth-protected-resource/mcp"`), String(seen[0].challenge))
  })
})
