import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { makeAccount, makeProfile, makeUser, STORE, startApp, type TestApp } from '../../helpers/app.ts'
import { callTool, connectMcp, errorOf } from '../../helpers/mcp.ts'

describe(`move_slot (${STORE})`, () => {
  let t: TestApp
  let client: Client
  let user: Awaited<ReturnType<typeof makeAccount>>['user']

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    user = account.user
    client = await connectMcp(t, account.token)
  })
  after(async () => {
    await client.close()
    await t.close()
  })

  /** A page with four dividers; their ids in page order. */
  async function pageWithSlots(): Promise<{ login: string; ids: number[] }> {
    const { login } = await makeProfile(t, user)
    const created = await callTool(client, 'create_slots', { profileKey: login, slots: [1, 2, 3, 4].map(() => ({ type: 'divider' })) })
    return { login, ids: created.structuredContent.slots.map((s: { id: number }) => s.id) }
  }
  const order = async (login: string) => (await callTool(client, 'list_slots', { profileKey: login })).structuredContent.slots.map((s: { id: number }) => s.id)

  it('moves one slot to the top, the others keeping their sequence, and past the end to the last place', async () => {
    const { login, ids } = await pageWithSlots()
    const moved = await callTool(client, 'move_slot', { profileKey: login, slot: ids[2], position: 0 })
    assert.ok(!moved.isError, moved.content[0].text)
    assert.deepEqual(await order(login), [ids[2], ids[0], ids[1], ids[3]])
    assert.deepEqual(
      moved.structuredContent.slots.map((s: { id: number; order: number }) => [s.id, s.order]),
      [ids[2], ids[0], ids[1], ids[3]].map((id, i) => [id, i]),
    )
    await callTool(client, 'move_slot', { profileKey: login, slot: ids[2], position: 400 })
    assert.deepEqual(await order(login), [ids[0], ids[1], ids[3], ids[2]])
  })

  it('stores nothing on a dry run and says so in structuredContent', async () => {
    const { login, ids } = await pageWithSlots()
    const dry = await callTool(client, 'move_slot', { profileKey: login, slot: ids[3], position: 0, dryRun: true })
    assert.equal(dry.structuredContent.dryRun, true)
    assert.equal(dry.structuredContent.slots[0].id, ids[3])
    assert.deepEqual(await order(login), ids)
  })

  it('refuses a slot that is not on the page and moves nothing', async () => {
    const { login } = await pageWithSlots()
    const other = await pageWithSlots()
    const result = await callTool(client, 'move_slot', { profileKey: login, slot: other.ids[0], position: 0 })
    assert.equal(errorOf(result).code, 'not_found')
    assert.deepEqual(await order(other.login), other.ids)
  })

  it("answers another account's page as not found", async () => {
    const stranger = await makeProfile(t, await makeUser(t))
    const result = await callTool(client, 'move_slot', { profileKey: stranger.login, slot: 1, position: 0 })
    assert.equal(errorOf(result).code, 'not_found')
  })
})
