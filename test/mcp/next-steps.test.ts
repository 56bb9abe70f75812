import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { STORE, type TestApp } from '../helpers/app.ts'
import { startMcpSession, callTool } from '../helpers/mcp.ts'

// The core names a next step by operation ({{files.upload}}); each face must say it its own way.
describe(`next steps as each face says them (${STORE})`, () => {
  let t: TestApp
  let client: Client
  let token: string
  let login: string
  before(async () => {
    ;({ t, token, login, client } = await startMcpSession())
  })
  after(async () => {
    await client.close()
    await t.close()
  })

  const foreignPicture = { type: 'picture', data: { path: 'u999/not-mine.webp' } }

  it('tells an API client which route uploads the image', async () => {
    const res = await t.request('POST', `/v1/profiles/${login}/slots`, { token, body: foreignPicture })
    assert.equal(res.status, 422)
    const said = JSON.stringify(res.body)
    assert.match(said, /POST \/files/)
    assert.doesNotMatch(said, /\{\{|upload_image_from_url/)
  })

  it('tells an agent over MCP which tool uploads the image', async () => {
    const result = await callTool(client, 'create_slots', { profileKey: login, slots: [foreignPicture] })
    assert.equal(result.isError, true)
    // Error details travel in the text and _meta, never in structuredContent (SDK v1 checks it).
    const said = JSON.stringify([result.content, result._meta])
    assert.match(said, /upload_image_from_url/)
    assert.doesNotMatch(said, /\{\{|POST \/files/)
  })

  it('describes the picture type with the route in the API and the tool over MCP', async () => {
    const api = JSON.stringify((await t.request('GET', '/v1/slot-types/picture', { token })).body)
    assert.match(api, /POST \/files/)
    assert.doesNotMatch(api, /\{\{/)
    const mcp = JSON.stringify((await callTool(client, 'list_slot_types')).structuredContent)
    assert.match(mcp, /upload_image_from_url/)
    assert.doesNotMatch(mcp, /\{\{|POST \/files|GET \/slot-types/)
    const { tools } = await client.listTools()
    for (const tool of tools) {
      assert.doesNotMatch(JSON.stringify(tool), /\{\{[a-zA-Z]+\.[a-zA-Z]+\}\}/, tool.name)
      assert.doesNotMatch(tool.description ?? '', /\{[a-z_]+\}/, `${tool.name} leaves a placeholder unfilled`)
    }
  })
})
