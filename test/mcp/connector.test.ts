import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { startMcpSession, callTool, connectMcp, errorOf } from '../helpers/mcp.ts'
import { tools as registry } from '../../src/mcp/tools/tool-list.ts'
import { writableTypes } from '../../src/slots/registry.ts'
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
    ;({ t, token, login, client } = await startMcpSession())
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
      // Output schemas only where a program branches on a small answer: each costs every conversation.
      assert.deepEqual(
        tools.filter((x) => x.outputSchema).map((x) => x.name),
        registry.filter((x) => x.advertiseOutput).map((x) => x.name),
      )
      assert.ok(tools.filter((x) => x.outputSchema).every((x) => x.outputSchema?.type === 'object'))
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
      const body = errorOf(result)
      assert.equal(rest.status, 422)
      assert.deepEqual(
        { message: body.message, code: body.code, errors: body.errors },
        { message: rest.body.message, code: rest.body.code, errors: rest.body.errors },
      )
      assert.ok(body.errors!['slots.0.data.link'])
      assert.equal(result.structuredContent, undefined, 'error details never in structuredContent (SDK v1 checks it against the output schema)')
      const text = result.content[0].text!
      assert.ok(text.includes(rest.body.message) && text.includes('slots.0.data.link'), text)
    })

    it('checks the arguments with the REST schema and names every bad one', async () => {
      const result = await callTool(client, 'reorder_slots', { profileKey: login, order: 'first', extra: 1 })
      assert.equal(result.isError, true)
      assert.equal(errorOf(result).code, 'validation_failed')
      assert.deepEqual(Object.keys(errorOf(result).errors!).sort(), ['extra', 'order'])
    })

    it("answers another account's page as not found", async () => {
      const stranger = await makeProfile(t, await makeUser(t))
      const result = await callTool(client, 'get_profile', { profileKey: stranger.login })
      assert.equal(result.isError, true)
      assert.equal(errorOf(result).code, 'not_found')
    })

    it('stores nothing on a dry run and still answers what would be created', async () => {
      const result = await callTool(client, 'create_slots', { profileKey: login, dryRun: true, slots: [{ type: 'divider' }] })
      assert.ok(!result.isError, result.content[0].text)
      assert.equal(result.structuredContent.slots.length, 1)
      assert.equal(result.structuredContent.dryRun, true)
      assert.match(result.content[0].text!, /^Dry run/)
      const rest = await t.request('GET', `/v1/profiles/${login}/slots`, { token })
      assert.equal(rest.body.data.length, 0)
    })

    it('writes once per idempotencyKey: a repeat answers the first result, other arguments under the key are refused', async () => {
      const args = { profileKey: login, idempotencyKey: 'add-divider-1', slots: [{ type: 'divider' }] }
      const first = await callTool(client, 'create_slots', args)
      const again = await callTool(client, 'create_slots', args)
      assert.equal(first.structuredContent.replayed, undefined)
      assert.deepEqual(again.structuredContent, { ...first.structuredContent, replayed: true })
      assert.match(again.content[0].text!, /^Replayed/)
      const rest = await t.request('GET', `/v1/profiles/${login}/slots`, { token })
      assert.equal(rest.body.data.length, 1)
      const other = await callTool(client, 'create_slots', { ...args, slots: [{ type: 'divider' }, { type: 'divider' }] })
      assert.equal(errorOf(other).code, 'idempotency_mismatch')
    })
  })

  describe('tool text', () => {
    /** REST operations, /v1 paths and {placeholders}: words a model talking to tools cannot act on. */
    const restWords = /\b(GET|POST|PUT|PATCH|DELETE) (\/|…)|\/v1\/|\{(public_base|base_url|profileKey|slot|type|login)\}/

    it('names tools, never REST operations or placeholders, in tool descriptions, schemas, resources and slot types', async () => {
      const { tools } = await client.listTools()
      for (const tool of tools) assert.doesNotMatch(JSON.stringify(tool), restWords, tool.name)
      const { resources } = await client.listResources()
      for (const resource of resources) {
        assert.doesNotMatch(JSON.stringify(resource), restWords, resource.uri)
        const read = await client.readResource({ uri: resource.uri })
        assert.doesNotMatch(JSON.stringify(read), restWords, resource.uri)
      }
      const types = await callTool(client, 'list_slot_types')
      assert.doesNotMatch(JSON.stringify(types), restWords)
    })

    it('names tools in errors: a slot not on the page points to list_slots', async () => {
      const result = await callTool(client, 'update_slots', { profileKey: login, slots: [{ id: 999999, data: { title: 'x' } }] })
      assert.equal(errorOf(result).code, 'validation_failed')
      assert.doesNotMatch(result.content[0].text!, restWords)
      assert.match(errorOf(result).errors!['slots.0.id'][0], /list_slots lists them/)
    })

    it('names the allowed values of a bad period', async () => {
      const result = await callTool(client, 'get_analytics', { period: 'last week' })
      assert.match(errorOf(result).errors!.period[0], /^Must be one of: today, yesterday, last7, .*lastMonth\.$/)
    })

    it("takes profileKey in check_login: the page's own login is not reported as taken", async () => {
      const taken = await callTool(client, 'check_login', { login })
      assert.equal(taken.structuredContent.reason, 'taken')
      const own = await callTool(client, 'check_login', { login, profileKey: login })
      assert.equal(own.structuredContent.available, true, own.content[0].text)
      const old = await callTool(client, 'check_login', { login, profile: login })
      assert.deepEqual(Object.keys(errorOf(old).errors!), ['profile'], 'the REST name is not a tool argument')
    })

    it("offers create_slots and update_slots only the types they accept, and refuses a type that is not the slot's own", async () => {
      const { tools } = await client.listTools()
      for (const name of ['create_slots', 'update_slots']) {
        const items = (tools.find((x) => x.name === name)!.inputSchema.properties!.slots as any).items
        assert.deepEqual(items.properties.type.enum, writableTypes, name)
        assert.ok(!items.properties.type.enum.includes('event') && !items.properties.type.enum.includes('form'))
      }
      const created = await callTool(client, 'create_slots', { profileKey: login, slots: [{ type: 'text', data: { title: 'Hi' } }] })
      const id = created.structuredContent.slots[0].id
      const wrong = await callTool(client, 'update_slots', { profileKey: login, slots: [{ id, type: 'button', data: { title: 'x' } }] })
      assert.match(errorOf(wrong).errors![`slots.0.type`][0], /is a text slot, not button/)
      const right = await callTool(client, 'update_slots', { profileKey: login, slots: [{ id, type: 'text', data: { title: 'Hello' } }] })
      assert.ok(!right.isError, right.content[0].text)
      assert.equal(right.structuredContent.slots[0].data.title, 'Hello')
      await callTool(client, 'delete_slots', { profileKey: login, ids: [id] })
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
        assert.equal(errorOf(result).code, 'forbidden')
        assert.match(errorOf(result).message, /needs the profile:write scope/)
      } finally {
        await reader.close()
      }
    })
  })
})

/** A tools/call message, as a raw client puts it in a body. */
const toolsCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
})

describe(`/mcp rate limits (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '3' })
  })
  after(() => t.close())

  it('counts tool calls, never initialize, lists, ping or notifications; past the quota the model reads the wait in a tool result', async () => {
    useHandClock(t)
    const { user, token } = await makeAccount(t)
    const page = await makeProfile(t, user)
    for (let i = 0; i < 5; i++) assert.equal((await post(t, initialize2025, { authorization: `Bearer ${token}` })).status, 200)
    const client = await connectMcp(t, token)
    try {
      await client.listTools()
      await client.listResources()
      await client.listPrompts()
      await client.ping()
      await client.setLoggingLevel('info')
      const results = []
      for (let i = 0; i < 4; i++) results.push(await callTool(client, 'list_slots', { profileKey: page.login }))
      assert.deepEqual(
        results.map((r) => r.isError === true),
        [false, false, false, true],
      )
      const refused = results[3]
      assert.ok(refused.structuredContent.retryAfterSeconds >= 1)
      assert.deepEqual(Object.keys(refused.structuredContent), ['retryAfterSeconds'])
      assert.equal(errorOf(refused).code, 'rate_limited')
      assert.match(refused.content[0].text!, /3 tool calls per minute .* Call it again in \d+ s\./)
      assert.equal((await t.request('GET', '/v1/me', { token })).status, 429, 'the same quota as the REST API')
    } finally {
      await client.close()
    }
  })

  it('counts every tool call of a 2025-03-26 batch on its own: of five, three run and two are refused', async () => {
    useHandClock(t)
    const { user, token } = await makeAccount(t)
    const page = await makeProfile(t, user)
    const batch = [1, 2, 3, 4, 5].map((id) => toolsCall(id, 'create_slots', { profileKey: page.login, slots: [{ type: 'divider' }] }))
    const res = await post(t, batch, { authorization: `Bearer ${token}` })
    assert.equal(res.status, 200)
    const text = await res.text()
    const answers = (res.headers.get('content-type') ?? '').includes('text/event-stream')
      ? text
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .flatMap((l) => JSON.parse(l.slice(6)))
      : [JSON.parse(text)].flat()
    assert.equal(answers.length, 5)
    assert.equal(answers.filter((a: any) => a.result?.isError === true && a.result._meta['slotline/error'].code === 'rate_limited').length, 2)
    const own = await t.ctx.db.selectFrom('slots').select('id').where('profile_id', '=', page.id).execute()
    assert.equal(own.length, 3)
  })

  it('refuses a JSON-RPC batch with -32600 from protocol version 2025-06-18 on, running none of it', async () => {
    useHandClock(t)
    const { user, token } = await makeAccount(t)
    const page = await makeProfile(t, user)
    const batch = [1, 2].map((id) => toolsCall(id, 'create_slots', { profileKey: page.login, slots: [{ type: 'divider' }] }))
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await post(t, batch, { authorization: `Bearer ${token}`, 'mcp-protocol-version': version })
      assert.equal(res.status, 400)
      const body = await res.json()
      assert.equal(body.error.code, -32600)
      assert.match(body.error.message, /batch/i)
    }
    const own = await t.ctx.db.selectFrom('slots').select('id').where('profile_id', '=', page.id).execute()
    assert.equal(own.length, 0)
  })
})
