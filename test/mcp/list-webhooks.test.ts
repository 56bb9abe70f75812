import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { callTool, connectMcp } from '../helpers/mcp.ts'

describe(`MCP list_webhooks (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ WEBHOOK_URL_ALLOW_HOSTS: '127.0.0.1:9' })
  })
  after(() => t.close())

  it('lists the account’s endpoints as the API shows them, never their secrets', async () => {
    const { token } = await makeAccount(t)
    const created = await t.request('POST', '/v1/webhooks', { token, body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['form.submitted'] } })
    assert.equal(created.status, 201, created.text)
    const client = await connectMcp(t, token)
    const result = await callTool(client, 'list_webhooks')
    assert.deepEqual(result.structuredContent, { endpoints: [created.body.data] })
    assert.ok(!JSON.stringify(result).includes(created.body.meta.secret))
    await client.close()
  })
})
