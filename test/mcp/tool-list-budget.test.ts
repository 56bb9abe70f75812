import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { tools } from '../../src/mcp/tools/tool-list.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'

/** What one tools/list answer may cost every conversation that connects, whole. */
const BUDGET_BYTES = 40 * 1024

describe(`tools/list within its budget (${STORE})`, () => {
  let t: TestApp
  let token: string
  before(async () => {
    t = await startApp()
    ;({ token } = await makeAccount(t))
  })
  after(() => t.close())

  it(`answers every tool in at most ${BUDGET_BYTES} bytes, each described in one or two sentences`, async () => {
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })
    const text = await res.text()
    const json = (res.headers.get('content-type') ?? '').includes('text/event-stream')
      ? text
          .split('\n')
          .find((l) => l.startsWith('data: '))!
          .slice(6)
      : text
    const listed = JSON.parse(json).result.tools as Array<{ name: string; description: string }>
    assert.deepEqual(
      listed.map((tool) => tool.name),
      tools.map((tool) => tool.name),
      'every tool is kept',
    )
    assert.ok(Buffer.byteLength(json) <= BUDGET_BYTES, `tools/list is ${Buffer.byteLength(json)} bytes`)
    for (const tool of listed) {
      const sentences = tool.description.split(/(?<=[.!?])\s+(?=[A-Z])/).length
      assert.ok(sentences <= 2, `${tool.name}: ${sentences} sentences`)
    }
  })
})
