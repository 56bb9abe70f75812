import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { makeAccount, makeProfile, makeUser, STORE, startApp, type TestApp } from '../../helpers/app.ts'
import { callTool, connectMcp, errorOf } from '../../helpers/mcp.ts'

describe(`upsert_social_link, move_social_link and delete_social_link (${STORE})`, () => {
  let t: TestApp
  let token: string
  let client: Client
  let userId: number

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    token = account.token
    userId = account.user.id
    client = await connectMcp(t, token)
  })
  after(async () => {
    await client.close()
    await t.close()
  })

  /** A page with instagram, tiktok and an e-mail link, in that order. */
  async function pageWithSocials(): Promise<string> {
    const user = { id: userId } as Parameters<typeof makeProfile>[1]
    const page = await makeProfile(t, user)
    const socials = [{ link: 'instagram.com/jane' }, { link: 'tiktok.com/@jane' }, { link: 'mailto:jane@example.com' }]
    assert.equal((await t.request('PATCH', `/v1/profiles/${page.login}`, { token, body: { socials } })).status, 200)
    return page.login
  }
  const row = async (login: string) => (await t.request('GET', `/v1/profiles/${login}`, { token })).body.data
  const platforms = async (login: string) => (await row(login)).computed.socials.map((s: { icon: string }) => s.icon)

  it('adds a link on a new platform last and replaces the link on the same platform in its place, leaving the others', async () => {
    const login = await pageWithSocials()
    const added = await callTool(client, 'upsert_social_link', { profileKey: login, link: 'youtube.com/@jane' })
    assert.ok(!added.isError, added.content[0].text)
    assert.deepEqual([added.structuredContent.platform, added.structuredContent.outcome], ['youtube', 'added'])
    assert.deepEqual(await platforms(login), ['instagram', 'tiktok', 'email', 'youtube'])
    const replaced = await callTool(client, 'upsert_social_link', { profileKey: login, link: 'https://www.instagram.com/jane.photo' })
    assert.equal(replaced.structuredContent.outcome, 'replaced')
    const page = await row(login)
    assert.deepEqual(
      page.computed.socials.map((s: { icon: string }) => s.icon),
      ['instagram', 'tiktok', 'email', 'youtube'],
    )
    assert.equal(page.socials[0].link, 'https://www.instagram.com/jane.photo')
    assert.equal(page.socials[1].link, 'https://tiktok.com/@jane')
  })

  it('places a link at a position when asked', async () => {
    const login = await pageWithSocials()
    await callTool(client, 'upsert_social_link', { profileKey: login, link: 'x.com/jane', position: 0 })
    assert.deepEqual(await platforms(login), ['x', 'instagram', 'tiktok', 'email'])
  })

  it('moves one link, the others keeping their sequence', async () => {
    const login = await pageWithSocials()
    const moved = await callTool(client, 'move_social_link', { profileKey: login, platform: 'email', position: 0 })
    assert.ok(!moved.isError, moved.content[0].text)
    assert.deepEqual(await platforms(login), ['email', 'instagram', 'tiktok'])
    assert.match(moved.content[0].text!, /the row is now: email, instagram, tiktok/)
  })

  it('deletes one link, and names the links the page has when the platform is not among them', async () => {
    const login = await pageWithSocials()
    const deleted = await callTool(client, 'delete_social_link', { profileKey: login, platform: 'tiktok' })
    assert.ok(!deleted.isError, deleted.content[0].text)
    assert.deepEqual(await platforms(login), ['instagram', 'email'])
    const absent = await callTool(client, 'delete_social_link', { profileKey: login, platform: 'tiktok' })
    assert.equal(errorOf(absent).code, 'validation_failed')
    assert.match(errorOf(absent).errors!.platform[0], /no tiktok link; its social links are: instagram, email\./)
  })

  it('names the allowed platforms for one it does not know', async () => {
    const login = await pageWithSocials()
    const result = await callTool(client, 'move_social_link', { profileKey: login, platform: 'myspace', position: 0 })
    assert.match(errorOf(result).errors!.platform[0], /^Must be one of: instagram, tiktok, .*link\.$/)
  })

  it('stores nothing on a dry run and marks it; a retry with the same idempotencyKey is marked replayed and writes once', async () => {
    const login = await pageWithSocials()
    const dry = await callTool(client, 'delete_social_link', { profileKey: login, platform: 'instagram', dryRun: true })
    assert.equal(dry.structuredContent.dryRun, true)
    assert.deepEqual(await platforms(login), ['instagram', 'tiktok', 'email'])
    const args = { profileKey: login, link: 'facebook.com/jane', position: 0, idempotencyKey: 'fb-1' }
    const first = await callTool(client, 'upsert_social_link', args)
    await callTool(client, 'move_social_link', { profileKey: login, platform: 'facebook', position: 3 })
    const again = await callTool(client, 'upsert_social_link', args)
    assert.equal(again.structuredContent.replayed, true)
    assert.deepEqual(again.structuredContent.profile, first.structuredContent.profile)
    assert.deepEqual(await platforms(login), ['instagram', 'tiktok', 'email', 'facebook'], 'the replay wrote nothing')
  })

  it("answers another account's page as not found", async () => {
    const stranger = await makeProfile(t, await makeUser(t))
    const result = await callTool(client, 'upsert_social_link', { profileKey: stranger.login, link: 'x.com/me' })
    assert.equal(errorOf(result).code, 'not_found')
  })
})
