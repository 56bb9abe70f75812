import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { makeAccount, makeProfile, makeToken, STORE, startApp, type TestApp } from '../../helpers/app.ts'
import { callTool, connectMcp, errorOf } from '../../helpers/mcp.ts'
import { BROWSER_UA } from '../../pages/page-fixtures.ts'

// issue 31: hide_slot, show_slot and schedule_slot, the agent's way to the same write as
// PATCH …/slots/{slot} with visibility.

describe(`MCP hide_slot, show_slot, schedule_slot (${STORE})`, () => {
  let t: TestApp
  let client: Client
  let token: string
  let login: string
  let slotId: number
  before(async () => {
    t = await startApp()
    const account = await makeAccount(t, { timezone: 'Europe/Berlin' })
    token = account.token
    login = (await makeProfile(t, account.user)).login
    client = await connectMcp(t, token)
    const created = await t.request('POST', `/v1/profiles/${login}/slots`, {
      token,
      body: { type: 'button', data: { title: 'Sale', link: 'https://example.com/sale' } },
    })
    slotId = created.body.data.id
  })
  after(async () => {
    await client?.close()
    await t?.close()
  })

  const onPage = async () => (await t.request('GET', `/${login}`, { headers: { 'user-agent': BROWSER_UA } })).text.includes(`id="slot-${slotId}"`)
  const stored = async () => (await t.request('GET', `/v1/profiles/${login}/slots/${slotId}`, { token })).body.data.visibility

  it('stores nothing on a dry run of hide_slot and still answers the slot as it would be', async () => {
    const result = await callTool(client, 'hide_slot', { profileKey: login, slot: slotId, dryRun: true })
    assert.ok(!result.isError, result.content[0].text)
    assert.equal(result.structuredContent.slot.visibility.hidden, true)
    assert.match(result.content[0].text!, /^Dry run/)
    assert.equal((await stored()).hidden, false)
    assert.equal(await onPage(), true)
  })

  it('hides the block from the public page, and show_slot puts it back', async () => {
    const hidden = await callTool(client, 'hide_slot', { profileKey: login, slot: slotId })
    assert.ok(!hidden.isError, hidden.content[0].text)
    assert.equal(await onPage(), false)
    const shown = await callTool(client, 'show_slot', { profileKey: login, slot: slotId })
    assert.deepEqual(shown.structuredContent.slot.visibility, { hidden: false, startsAt: null, endsAt: null })
    assert.equal(await onPage(), true)
  })

  it('schedules a window in the owner’s zone, keeps a bound left out, and answers a repeat under one idempotencyKey once', async () => {
    const args = { profileKey: login, slot: slotId, startsAt: '2099-12-01T09:00', idempotencyKey: 'schedule-sale' }
    const first = await callTool(client, 'schedule_slot', args)
    assert.ok(!first.isError, first.content[0].text)
    assert.match(first.content[0].text!, /from 2099-12-01T09:00 with no end/)
    assert.equal(await onPage(), false)
    const again = await callTool(client, 'schedule_slot', args)
    const { replayed, ...replay } = again.structuredContent
    assert.equal(replayed, true)
    assert.deepEqual(replay, first.structuredContent)
    const other = await callTool(client, 'schedule_slot', { ...args, startsAt: '2099-12-02T09:00' })
    assert.equal(errorOf(other).code, 'idempotency_mismatch')
    const ends = await callTool(client, 'schedule_slot', { profileKey: login, slot: slotId, endsAt: '2099-12-24T18:00' })
    assert.deepEqual(ends.structuredContent.slot.visibility, { hidden: false, startsAt: '2099-12-01T09:00', endsAt: '2099-12-24T18:00' })
    const cleared = await callTool(client, 'schedule_slot', { profileKey: login, slot: slotId, startsAt: null, endsAt: null })
    assert.deepEqual(cleared.structuredContent.slot.visibility, { hidden: false, startsAt: null, endsAt: null })
    assert.equal(await onPage(), true)
  })

  it("refuses endsAt before startsAt with an error naming the tool's own endsAt argument", async () => {
    const result = await callTool(client, 'schedule_slot', { profileKey: login, slot: slotId, startsAt: '2099-12-02T09:00', endsAt: '2099-12-01T09:00' })
    assert.equal(result.isError, true)
    assert.equal(errorOf(result).code, 'validation_failed')
    assert.deepEqual(Object.keys(errorOf(result).errors ?? {}), ['endsAt'])
    assert.doesNotMatch(result.content[0].text!, /visibility\./)
  })

  it('refuses a read-only token and another account’s slot', async () => {
    const user = (await makeAccount(t)).user
    const reader = await connectMcp(t, await makeToken(t, user, ['profile:read']))
    try {
      const refused = await callTool(reader, 'hide_slot', { profileKey: login, slot: slotId })
      assert.equal(refused.isError, true)
    } finally {
      await reader.close()
    }
    const stranger = await makeAccount(t)
    const theirs = await makeProfile(t, stranger.user)
    const foreign = await callTool(client, 'hide_slot', { profileKey: theirs.login, slot: slotId })
    assert.equal(errorOf(foreign).code, 'not_found')
  })
})
