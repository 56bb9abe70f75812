import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { demo } from '../../../src/cli/demo-commands.ts'
import { usersRepository } from '../../../src/store/users.ts'
import { makeToken, STORE, startApp, type TestApp } from '../../helpers/app.ts'
import { callTool, connectMcp } from '../../helpers/mcp.ts'

describe(`MCP export_page and import_page (${STORE})`, () => {
  let t: TestApp
  let client: Client
  before(async () => {
    t = await startApp()
    await demo.run(t.ctx, { email: 'agent.port@example.test', login: 'agent.port' })
    const user = (await usersRepository.findByEmail(t.ctx.db, 'agent.port@example.test'))!
    client = await connectMcp(t, await makeToken(t, user))
  })
  after(async () => {
    await client.close()
    await t.close()
  })

  it('export_page answers the page document, the same as GET …/export?format=json', async () => {
    const result = await callTool(client, 'export_page', { profileKey: 'agent.port' })
    assert.ok(!result.isError, JSON.stringify(result))
    const doc = result.structuredContent
    assert.equal(doc.version, 1)
    assert.equal(doc.slots.length, 11)
    assert.match(result.content[0].text!, /11 slots, 3 images named/)
  })

  it('import_page with dryRun lists what it would create and skip, then imports for real', async () => {
    const doc = (await callTool(client, 'export_page', { profileKey: 'agent.port' })).structuredContent
    const dry = await callTool(client, 'import_page', { document: doc, login: 'agent.port.copy', dryRun: true })
    assert.ok(!dry.isError, JSON.stringify(dry))
    assert.equal(dry.structuredContent.dryRun, true)
    assert.deepEqual(
      dry.structuredContent.skipped.map((s: any) => s.field),
      ['slots.1', 'slots.2'],
    )
    assert.match(dry.content[0].text!, /^Dry run, nothing stored/)
    const real = await callTool(client, 'import_page', { document: doc, login: 'agent.port.copy', idempotencyKey: 'copy-1' })
    assert.ok(!real.isError, JSON.stringify(real))
    assert.equal(real.structuredContent.created.slots, 9)
    const again = await callTool(client, 'import_page', { document: doc, login: 'agent.port.copy', idempotencyKey: 'copy-1' })
    assert.equal(again.structuredContent.profile.id, real.structuredContent.profile.id)
  })

  it('import_page answers a document of another version as a tool error naming version', async () => {
    const result = await callTool(client, 'import_page', { document: { format: 'slotline.page', version: 9 } })
    assert.equal(result.isError, true)
    assert.match(result.content[0].text!, /version/)
  })
})
