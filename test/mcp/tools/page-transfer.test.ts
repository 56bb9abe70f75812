import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { demo } from '../../../src/cli/demo-commands.ts'
import { usersRepository } from '../../../src/store/users.ts'
import { makeAccount, makeToken, STORE, startApp, type TestApp } from '../../helpers/app.ts'
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

  it("import_page with dryRun lists what it would create, then imports for real, the page's own pictures kept", async () => {
    const doc = (await callTool(client, 'export_page', { profileKey: 'agent.port' })).structuredContent
    const dry = await callTool(client, 'import_page', { document: doc, login: 'agent.port.copy', dryRun: true })
    assert.ok(!dry.isError, JSON.stringify(dry))
    assert.equal(dry.structuredContent.dryRun, true)
    assert.deepEqual(dry.structuredContent.skipped, [], "the images are this account's: none is skipped")
    assert.match(dry.content[0].text!, /^Dry run, nothing stored/)
    const real = await callTool(client, 'import_page', { document: doc, login: 'agent.port.copy', idempotencyKey: 'copy-1' })
    assert.ok(!real.isError, JSON.stringify(real))
    assert.equal(real.structuredContent.created.slots, 11)
    assert.equal(real.structuredContent.created.files, 0, 'kept by path, not stored again')
    const again = await callTool(client, 'import_page', { document: doc, login: 'agent.port.copy', idempotencyKey: 'copy-1' })
    assert.equal(again.structuredContent.profile.id, real.structuredContent.profile.id)
    const copy = (await callTool(client, 'export_page', { profileKey: 'agent.port.copy' })).structuredContent
    // Events and forms are the copy's own records, with ids of their own.
    const withoutRecordIds = (slots: any[]) => slots.map(({ data: { eventId, formId, ...data }, ...slot }) => ({ ...slot, data }))
    assert.deepEqual(withoutRecordIds(copy.slots), withoutRecordIds(doc.slots), 'the copy shows the same blocks, pictures and galleries included')
    assert.deepEqual(copy.files, doc.files, 'and the very same images')
    assert.equal(copy.profile.avatar, doc.profile.avatar)
  })

  it('import_page into another account keeps no image of this one: those blocks are skipped, saying why', async () => {
    const doc = (await callTool(client, 'export_page', { profileKey: 'agent.port' })).structuredContent
    const other = await connectMcp(t, (await makeAccount(t)).token)
    try {
      const result = await callTool(other, 'import_page', { document: doc, login: 'other.copy', dryRun: true })
      assert.ok(!result.isError, JSON.stringify(result))
      const skipped = result.structuredContent.skipped
      assert.ok(skipped.length >= 2, JSON.stringify(skipped))
      for (const s of skipped) assert.match(s.reason, /neither in the upload nor one of this account's own images/)
    } finally {
      await other.close()
    }
  })

  it('import_page answers a document of another version as a tool error naming version', async () => {
    const result = await callTool(client, 'import_page', { document: { format: 'slotline.page', version: 9 } })
    assert.equal(result.isError, true)
    assert.match(result.content[0].text!, /version/)
  })
})
