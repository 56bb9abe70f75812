import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { callTool, connectMcp } from '../helpers/mcp.ts'
import { tools as registry } from '../../src/mcp/tools/index.ts'
import { useHandClock } from '../helpers/rate-limits.ts'

const ACCEPT = 'application/json, text/event-stream'

/** A raw JSON-RPC POST to /mcp, as a 2025-era client (or a stranger) sends it. */
async function post(t: TestApp, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${t.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body: JSON.stringify(body) })
}
const initialize2025 = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old-agent', version: '0.1' } },
}

/** The JSON-RPC message of a response, whether it came as JSON or as one SSE event. */
async function messageOf(res: Response): Promise<any> {
  const text = await res.text()
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = text.split('\n').find((l) => l.startsWith('data: '))
    return JSON.parse(data!.slice(6))
  }
  return JSON.parse(text)
}

describe(`/mcp (${STORE})`, () => {
  let t: TestApp
  let token: string
  let login: string
  let client: Client

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    token = account.token
    login = (await makeProfile(t, account.user)).login
    client = await connectMcp(t, token)
  })
  after(async () => {
    await client.close()
    await t.close()
  })

  describe('authentication', () => {
    it('answers 401 without a token, with the challenge pointing at the protected-resource metadata', async () => {
      const res = await post(t, initialize2025)
      assert.equal(res.status, 401)
      const challenge = res.headers.get('www-authenticate') ?? ''
      assert.match(challenge, /^Bearer /)
      assert.ok(challenge.includes(`resource_metadata="${t.url}/.well-known/oauth-protected-resource/mcp"`), challenge)
      assert.doesNotMatch(challenge, /error=/, 'no token sent, so no error (RFC 6750 §3.1)')
      assert.equal((await res.json()).code, 'unauthenticated')
    })

    it('answers 401 invalid_token for a revoked or made-up token', async () => {
      const res = await post(t, initialize2025, { authorization: `Bearer slp_${'x'.repeat(40)}` })
      assert.equal(res.status, 401)
      const challenge = res.headers.get('www-authenticate') ?? ''
      assert.match(challenge, /resource_metadata="[^"]*\/mcp"/)
      assert.match(challenge, /error="invalid_token"/)
    })

    it('refuses a request from a foreign Origin with 403 and serves its own origin', async () => {
      const foreign = await post(t, initialize2025, { authorization: `Bearer ${token}`, origin: 'https://evil.example' })
      assert.equal(foreign.status, 403)
      const own = await post(t, initialize2025, { authorization: `Bearer ${token}`, origin: t.url })
      assert.equal(own.status, 200)
    })
  })

  describe('protocol', () => {
    it('serves a 2025-era client statelessly: initialize answers without a session id', async () => {
      const res = await post(t, initialize2025, { authorization: `Bearer ${token}` })
      assert.equal(res.status, 200)
      assert.equal(res.headers.get('mcp-session-id'), null)
      const msg = await messageOf(res)
      assert.equal(msg.result.protocolVersion, '2025-06-18')
      assert.equal(msg.result.serverInfo.name, 'slotline')
    })

    it('lists every tool with its annotations and output schema, and every slot type as a resource', async () => {
      const { tools } = await client.listTools()
      assert.deepEqual(
        tools.map((x) => x.name),
        registry.map((x) => x.name),
      )
      const del = tools.find((x) => x.name === 'delete_slots')!
      assert.equal(del.annotations?.destructiveHint, true)
      assert.equal(del.annotations?.readOnlyHint, false)
      assert.equal(tools.find((x) => x.name === 'create_slots')!.inputSchema.type, 'object')
      assert.ok(tools.every((x) => x.outputSchema?.type === 'object'))
      const { resources } = await client.listResources()
      assert.equal(resources.length, 10)
      const faq = await client.readResource({ uri: 'slotline://slot-types/faq' })
      const body = JSON.parse((faq.contents[0] as { text: string }).text)
      assert.equal(body.type, 'faq')
      assert.ok(body.example.items.length > 0)
    })

    it('offers the build_page prompt naming the call order', async () => {
      const prompt = await client.getPrompt({ name: 'build_page', arguments: { about: 'a jazz trio' } })
      const text = (prompt.messages[0].content as { text: string }).text
      assert.match(text, /a jazz trio/)
      assert.ok(text.indexOf('get_me') < text.indexOf('create_profile') && text.indexOf('create_profile') < text.indexOf('create_slots'))
    })
  })

  describe('tool results', () => {
    it('returns structured content matching the REST resource, plus a short text', async () => {
      const result = await callTool(client, 'list_slots', { profileKey: login })
      assert.ok(!result.isError)
      assert.deepEqual(result.structuredContent, { slots: [] })
      assert.match(result.content[0].text!, /0 slot/)
    })

    it('refuses bad slot data with the REST error: same message, code and field keys', async () => {
      const slots = [{ type: 'button', data: { title: 'x', link: 'javascript:alert(1)', icon: 'nope' } }]
      const rest = await t.request('POST', `/v1/profiles/${login}/slots/batch`, { token, body: { slots } })
      const result = await callTool(client, 'create_slots', { profileKey: login, slots })
      assert.equal(result.isError, true)
      const body = JSON.parse(result.content[0].text!)
      assert.equal(rest.status, 422)
      assert.deepEqual({ message: body.message, code: body.code, errors: body.errors }, { message: rest.body.message, code: rest.body.code, errors: rest.body.errors })
      assert.ok(body.errors['slots.0.data.link'])
    })

    it('checks the arguments with the REST schema and names every bad one', async () => {
      const result = await callTool(client, 'reorder_slots', { profileKey: login, order: 'first', extra: 1 })
      assert.equal(result.isError, true)
      assert.equal(result.structuredContent.code, 'validation_failed')
      assert.deepEqual(Object.keys(result.structuredContent.errors).sort(), ['extra', 'order'])
    })

    it('answers another account\'s page as not found', async () => {
      const stranger = await makeProfile(t, await makeUser(t))
      const result = await callTool(client, 'get_profile', { profileKey: stranger.login })
      assert.equal(result.isError, true)
      assert.equal(result.structuredContent.code, 'not_found')
    })

    it('stores nothing on a dry run and still answers what would be created', async () => {
      const result = await callTool(client, 'create_slots', { profileKey: login, dryRun: true, slots: [{ type: 'divider' }] })
      assert.ok(!result.isError, result.content[0].text)
      assert.equal(result.structuredContent.slots.length, 1)
      assert.match(result.content[0].text!, /^Dry run/)
      const rest = await t.request('GET', `/v1/profiles/${login}/slots`, { token })
      assert.equal(rest.body.data.length, 0)
    })

    it('writes once per idempotencyKey: a repeat answers the first result, other arguments under the key are refused', async () => {
      const args = { profileKey: login, idempotencyKey: 'add-divider-1', slots: [{ type: 'divider' }] }
      const first = await callTool(client, 'create_slots', args)
      const again = await callTool(client, 'create_slots', args)
      assert.deepEqual(again.structuredContent, first.structuredContent)
      const rest = await t.request('GET', `/v1/profiles/${login}/slots`, { token })
      assert.equal(rest.body.data.length, 1)
      const other = await callTool(client, 'create_slots', { ...args, slots: [{ type: 'divider' }, { type: 'divider' }] })
      assert.equal(other.structuredContent.code, 'idempotency_mismatch')
    })
  })

  describe('scopes', () => {
    it('lets a read-only token read but answers a write tool with an error naming the missing scope', async () => {
      const user = await makeUser(t)
      const page = await makeProfile(t, user)
      const reader = await connectMcp(t, await makeToken(t, user, ['profile:read']))
      try {
        assert.ok(!(await callTool(reader, 'get_profile', { profileKey: page.login })).isError)
        const result = await callTool(reader, 'create_slots', { profileKey: page.login, slots: [{ type: 'divider' }] })
        assert.equal(result.isError, true)
        assert.equal(result.structuredContent.code, 'forbidden')
        assert.match(result.structuredContent.message, /needs the profile:write scope/)
      } finally {
        await reader.close()
      }
    })
  })
})

describe(`/mcp rate limits (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '3' })
  })
  after(() => t.close())

  it('counts each request against the token like the REST API: past the quota it is 429 with Retry-After', async () => {
    useHandClock(t)
    const { token } = await makeAccount(t)
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await post(t, initialize2025, { authorization: `Bearer ${token}` })).status)
    assert.deepEqual(statuses, [200, 200, 200, 429])
    const refused = await post(t, initialize2025, { authorization: `Bearer ${token}` })
    assert.ok(Number(refused.headers.get('retry-after')) >= 1)
    const rest = await t.request('GET', '/v1/me', { token })
    assert.equal(rest.status, 429, 'the same quota as the REST API')
  })
})
