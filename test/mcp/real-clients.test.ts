import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { loadConfig } from '../../src/config.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import type { ToolResult } from '../helpers/mcp.ts'
import { useHandClock } from '../helpers/rate-limits.ts'

// The clients hosts embed, against /mcp at the limits a fresh install runs with: TEST_ENV turns
// every limit off, so each RATE_LIMIT_* is given back its default here. (MCP Inspector 2.12's
// CLI needs Node >= 22.19 and cannot run on our Node 20; it is not tried.)
const defaults = loadConfig({}).rateLimit
const DEFAULT_LIMITS = {
  RATE_LIMIT_PER_SECOND: String(defaults.perSecond),
  RATE_LIMIT_PER_MINUTE: String(defaults.perMinute),
  RATE_LIMIT_ANALYTICS_PER_MINUTE: String(defaults.analyticsPerMinute),
  RATE_LIMIT_MUSIC_PER_MINUTE: String(defaults.musicPerMinute),
  RATE_LIMIT_ADDRESS_PER_MINUTE: String(defaults.addressPerMinute),
  RATE_LIMIT_SIGN_IN_PER_10_MINUTES: String(defaults.signInPer10Minutes),
}

/** What the test needs of either SDK's client. */
interface AnyClient {
  connect(transport: unknown): Promise<void>
  close(): Promise<void>
  listTools(): Promise<{ tools: Array<{ name: string }> }>
  listResources(): Promise<unknown>
  listResourceTemplates(): Promise<unknown>
  listPrompts(): Promise<unknown>
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>
}

const CLIENTS = {
  'TypeScript SDK v2 (@modelcontextprotocol/client)': (url: URL, token: string) => {
    const client = new ClientV2({ name: 'v2-host', version: '1.0.0' })
    return { client: client as unknown as AnyClient, transport: new TransportV2(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }) }
  },
  'TypeScript SDK v1 (@modelcontextprotocol/sdk 1.x, what most desktop hosts embed)': (url: URL, token: string) => {
    const client = new ClientV1({ name: 'v1-host', version: '1.0.0' })
    return { client: client as unknown as AnyClient, transport: new TransportV1(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }) }
  },
}

/** The connect burst of a host: initialize, then every list, at once. */
async function connectLikeAHost(t: TestApp, token: string, make: (typeof CLIENTS)[keyof typeof CLIENTS]): Promise<AnyClient> {
  const { client, transport } = make(new URL(`${t.url}/mcp`), token)
  await client.connect(transport)
  const lists = await Promise.allSettled([client.listTools(), client.listResources(), client.listResourceTemplates(), client.listPrompts()])
  assert.deepEqual(
    lists.filter((l) => l.status === 'rejected').map((l) => String((l as PromiseRejectedResult).reason)),
    [],
    'every list of the connect burst answers',
  )
  return client
}

const call = (client: AnyClient, name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<ToolResult>

for (const [clientName, make] of Object.entries(CLIENTS)) {
  describe(`${clientName} at the default rate limits (${STORE})`, () => {
    let t: TestApp
    before(async () => {
      t = await startApp(DEFAULT_LIMITS)
    })
    after(() => t.close())

    it('connects with a burst of every list and makes six parallel tool calls with no transport error; a refused one says how long to wait', async () => {
      const { user, token } = await makeAccount(t)
      const page = await makeProfile(t, user)
      const client = await connectLikeAHost(t, token, make)
      try {
        const calls = [
          call(client, 'get_me'),
          call(client, 'list_profiles'),
          call(client, 'get_profile', { profileKey: page.login }),
          call(client, 'list_slots', { profileKey: page.login }),
          call(client, 'list_slot_types'),
          call(client, 'get_profile_markdown', { profileKey: page.login }),
        ]
        const settled = await Promise.allSettled(calls)
        const transportErrors = settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))
        assert.deepEqual(transportErrors, [])
        const results = settled.map((s) => (s as PromiseFulfilledResult<ToolResult>).value)
        // Five per second is the default: the sixth, if it landed in the same second, is a tool result the model reads.
        assert.ok(results.filter((r) => !r.isError).length >= 5, JSON.stringify(results.map((r) => r.content[0]?.text)))
        for (const refused of results.filter((r) => r.isError)) {
          assert.ok(refused.structuredContent.retryAfterSeconds >= 1)
          assert.match(refused.content[0].text!, /Call it again in \d+ s/)
        }
      } finally {
        await client.close()
      }
    })

    it('answers the 61st tool call of a minute as a readable tool error with the wait, and the REST API then answers 429', async () => {
      const clock = useHandClock(t)
      const { user, token } = await makeAccount(t)
      const page = await makeProfile(t, user)
      const client = await connectLikeAHost(t, token, make)
      try {
        for (let i = 0; i < defaults.perMinute; i++) {
          const result = await call(client, 'list_slots', { profileKey: page.login })
          assert.ok(!result.isError, `call ${i + 1}: ${result.content[0]?.text}`)
          clock.advance(250) // four a second: under the per-second limit, all in one minute
        }
        const refused = await call(client, 'list_slots', { profileKey: page.login })
        assert.equal(refused.isError, true)
        assert.ok(refused.structuredContent.retryAfterSeconds >= 1)
        assert.match(
          refused.content[0].text!,
          new RegExp(
            `${defaults.perMinute} tool calls per minute .*list_slots was not run\\. Call it again in ${refused.structuredContent.retryAfterSeconds} s\\.`,
          ),
        )
        assert.equal((await t.request('GET', '/v1/me', { token })).status, 429)
      } finally {
        await client.close()
      }
    })

    it('answers a call on a missing page as a readable tool error naming the tool that lists pages', async () => {
      const { token } = await makeAccount(t)
      const client = await connectLikeAHost(t, token, make)
      try {
        const result = await call(client, 'get_profile', { profileKey: 'no.such.page' })
        assert.equal(result.isError, true)
        assert.equal(result.structuredContent, undefined)
        assert.match(result.content[0].text!, /^not_found: No profile "no\.such\.page" in your account\. list_profiles lists yours\.$/)
        const dry = await call(client, 'create_profile', { login: 'dry.run.page', dryRun: true })
        assert.ok(!dry.isError, dry.content[0]?.text)
        assert.equal(dry.structuredContent.dryRun, true, 'the marks pass the advertised output schema')
      } finally {
        await client.close()
      }
    })
  })
}
