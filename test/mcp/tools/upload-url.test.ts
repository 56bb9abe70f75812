import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { makeAccount, STORE, startApp, type TestApp } from '../../helpers/app.ts'
import { callTool, connectMcp } from '../../helpers/mcp.ts'

describe(`MCP get_upload_url (${STORE})`, () => {
  let t: TestApp
  let client: Client
  before(async () => {
    t = await startApp()
    client = await connectMcp(t, (await makeAccount(t)).token)
  })
  after(async () => {
    await client.close()
    await t.close()
  })

  it('with dryRun does not tell the agent to PUT to an address that takes no upload', async () => {
    const dry = await callTool(client, 'get_upload_url', { dryRun: true })
    assert.ok(!dry.isError, JSON.stringify(dry))
    const text = dry.content[0].text!
    assert.doesNotMatch(text, /PUT the image/)
    assert.match(text, /Call get_upload_url without dryRun/)
    assert.ok(dry.structuredContent.upload_url.startsWith(`${t.url}/`), 'the address is this test server')
    const put = await fetch(dry.structuredContent.upload_url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array([1]) })
    assert.ok(put.status >= 400, `the dry run's address is refused (${put.status})`)
    await put.arrayBuffer()
    const real = await callTool(client, 'get_upload_url', {})
    assert.match(real.content[0].text!, new RegExp(`PUT the image bytes to ${real.structuredContent.upload_url.replace(/[.?*+^$()[\]{}|\\]/g, '\\$&')}`))
  })
})
