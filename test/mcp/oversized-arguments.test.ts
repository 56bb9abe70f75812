import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ARGUMENT_LIMITS } from '../../src/mcp/argument-limits.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'

const ACCEPT = 'application/json, text/event-stream'

/** One tools/call as a 2025-06-18 client posts it. */
function callBody(name: string, args: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } })
}

/** The JSON-RPC message of a response, whether it came as JSON or as one SSE event. */
async function messageOf(res: Response): Promise<any> {
  const text = await res.text()
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream'))
    return JSON.parse(
      text
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6),
    )
  return JSON.parse(text)
}

describe(`/mcp tools/call with oversized arguments (${STORE})`, () => {
  let t: TestApp
  let token: string
  const post = (body: string) =>
    fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-06-18' },
      body,
    })

  before(async () => {
    t = await startApp()
    ;({ token } = await makeAccount(t))
  })
  after(() => t.close())

  it('refuses get_me with 200,000 unknown argument keys by counting them before the body is parsed', async () => {
    const args: Record<string, number> = {}
    for (let i = 0; i < 200_000; i++) args[`k${i}`] = 1
    const body = callBody('get_me', args)
    assert.ok(body.length > 2_000_000)
    const res = await post(body)
    const answer = await res.json()
    assert.equal(res.status, 413)
    assert.equal(answer.code, 'payload_too_large')
    assert.match(answer.message, new RegExp(`more than ${ARGUMENT_LIMITS.totalKeys} fields`))
    const after = await post(callBody('get_me', {}))
    assert.equal(after.status, 200, 'the connector still answers')
  })

  it('answers an object of more than 1,000 keys as a tool error naming arguments, before validation', async () => {
    const args: Record<string, number> = {}
    for (let i = 0; i <= ARGUMENT_LIMITS.keysPerObject; i++) args[`k${i}`] = 1
    const res = await post(callBody('get_me', args))
    assert.equal(res.status, 200)
    const { result } = await messageOf(res)
    assert.equal(result.isError, true)
    const details = result._meta['slotline/error']
    assert.equal(details.code, 'validation_failed')
    assert.deepEqual(Object.keys(details.errors), ['arguments'])
    assert.match(details.errors.arguments[0], /more than 1000 fields/)
  })

  it("answers arguments past 1 MB as a tool error naming arguments; import_page's names POST /v1/profiles/import, which takes larger documents", async () => {
    const big = 'x'.repeat(ARGUMENT_LIMITS.bytes + 10)
    const res = await post(callBody('check_login', { login: big }))
    const { result } = await messageOf(res)
    assert.equal(result.isError, true)
    assert.match(result._meta['slotline/error'].errors.arguments[0], new RegExp(`at most ${ARGUMENT_LIMITS.bytes} bytes`))
    assert.doesNotMatch(result.content[0].text, /profiles\/import/)
    const doc = await post(callBody('import_page', { document: { format: 'slotline.page', version: 1, profile: { description: big } }, dryRun: true }))
    const imported = (await messageOf(doc)).result
    assert.equal(imported.isError, true)
    assert.match(imported._meta['slotline/error'].errors.arguments[0], new RegExp(`at most ${ARGUMENT_LIMITS.bytes} bytes.*POST ${t.url}/v1/profiles/import`))
    const small = await post(
      callBody('import_page', { document: { format: 'slotline.page', version: 1, profile: { description: 'x'.repeat(1000) } }, dryRun: true }),
    )
    assert.doesNotMatch((await messageOf(small)).result.content[0].text, /bytes of arguments/, 'a document under the limit meets the document rules')
  })
})
