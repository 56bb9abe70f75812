import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { STORE, type TestApp } from '../helpers/app.ts'
import { startMcpSession, callTool, errorOf } from '../helpers/mcp.ts'

/** Issue 29, finding 1: a body of 200,000 unknown keys (about 2.3 MB, under the body and depth limits). */
function crowded(n: number, base: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (let i = 0; i < n; i++) out[`unknown_key_${i}`] = i
  return out
}

describe(`validation errors are bounded, on REST and MCP (${STORE})`, () => {
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

  it('refuses a REST body with 200,000 unknown keys as one error, in a small answer', async () => {
    const body = crowded(200_000, { login: 'crowded-page', title: 'Crowded' })
    const payload = JSON.stringify(body)
    assert.ok(payload.length > 2_000_000, 'the payload is the size of the attack')
    const res = await fetch(`${t.url}/v1/profiles`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: payload,
    })
    const text = await res.text()
    assert.equal(res.status, 422)
    assert.ok(text.length < 2_000, `answer of ${text.length} bytes`)
    const answer = JSON.parse(text)
    assert.equal(answer.code, 'validation_failed')
    assert.deepEqual(Object.keys(answer.errors), ['body'])
    assert.match(answer.errors.body[0], /200002 fields; at most 1000/)
  })

  it('refuses a 200,000-key object nested in slot data the same way', async () => {
    const slots = [{ type: 'button', data: crowded(200_000, { title: 'x', link: 'https://example.com' }) }]
    const res = await t.request('POST', `/v1/profiles/${login}/slots/batch`, { token, body: { slots } })
    assert.equal(res.status, 422)
    assert.ok(res.text.length < 2_000, `answer of ${res.text.length} bytes`)
    assert.deepEqual(Object.keys(res.body.errors), ['slots.0.data'])
  })

  it('names at most 50 fields, and says how many more there are', async () => {
    const res = await t.request('POST', '/v1/profiles', { token, body: crowded(300, { login: 'capped-page', title: 'Capped' }) })
    assert.equal(res.status, 422)
    assert.equal(Object.keys(res.body.errors).length, 50)
    assert.match(res.body.message, /the first 50 are named, and 25\d more\)$/)
  })

  it('refuses MCP arguments with 200,000 unknown keys before parsing them, in a small answer', async () => {
    // The body is counted before it is parsed: past the member limit it never reaches the SDK.
    await assert.rejects(callTool(client, 'reorder_slots', crowded(200_000, { profileKey: login, order: [] })), (err: Error) => {
      assert.match(err.message, /payload_too_large/)
      assert.ok(err.message.length < 2_000, `answer of ${err.message.length} bytes`)
      return true
    })
  })

  it('refuses MCP arguments with thousands of unknown keys as one error naming the arguments', async () => {
    const result = await callTool(client, 'reorder_slots', crowded(5_000, { profileKey: login, order: [] }))
    assert.equal(result.isError, true)
    const text = result.content[0].text!
    assert.ok(text.length < 2_000, `answer of ${text.length} bytes`)
    assert.deepEqual(Object.keys(errorOf(result).errors ?? {}), ['arguments'])
  })

  it('names at most 50 of 300 unknown MCP arguments', async () => {
    const result = await callTool(client, 'reorder_slots', crowded(300, { profileKey: login, order: [] }))
    assert.equal(result.isError, true)
    assert.equal(Object.keys(errorOf(result).errors ?? {}).length, 50)
    assert.match(errorOf(result).message, /the first 50 are named, and 25\d more\)$/)
  })
})
