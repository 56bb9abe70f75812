import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { type Client, SdkHttpError } from '@modelcontextprotocol/client'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import type { Visitor } from '../helpers/dashboard.ts'
import { callTool, connectMcp } from '../helpers/mcp.ts'
import { solid } from '../media/images.ts'
import { DISCOVERY_UPC } from '../music/fakes/fixtures.ts'
import { type FakeUpstreams, startFakeUpstreams } from '../music/fakes/upstreams.ts'
import { tokensFor } from '../oauth/helpers.ts'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'

/** The photographer's portrait, served from 127.0.0.1 (listed in UPLOAD_URL_ALLOW_HOSTS). */
async function portraitServer(png: Buffer): Promise<{ server: Server; url: string; host: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/portrait.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(png)
    res.writeHead(404).end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return { server, url: `http://127.0.0.1:${port}/portrait.png`, host: `127.0.0.1:${port}` }
}

describe(`An agent connected through OAuth builds a musician's page through /mcp (${STORE})`, () => {
  let t: TestApp
  let fakes: FakeUpstreams
  let portrait: Awaited<ReturnType<typeof portraitServer>>
  let client: Client
  /** The person who approved the connection, signed in to the dashboard. */
  let person: Visitor

  before(async () => {
    fakes = await startFakeUpstreams()
    portrait = await portraitServer(await solid(900, 900, 'png'))
    t = await startApp({ ...fakes.env, UPLOAD_URL_ALLOW_HOSTS: portrait.host })
    // Discovery, dynamic registration, consent and the code exchange over real HTTP, for the
    // connector as the audience (RFC 8707); the browser leg is oauth-end-to-end.browser.test.ts.
    const { c, tokens } = await tokensFor(t, { resource: `${t.url}/mcp` })
    person = c.visitor
    client = await connectMcp(t, String(tokens.access_token))
  })
  after(async () => {
    await client.close()
    await t.close()
    await fakes.close()
    portrait.server.closeAllConnections()
    await new Promise((r) => portrait.server.close(r))
  })

  it('creates the page, its avatar, music, three buttons and an FAQ, reorders, reads it back and its statistics with no tool error in at most 12 calls, and is refused with 401 once the person disconnects the app', async () => {
    const calls: Array<{ name: string; isError: boolean }> = []
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await callTool(client, name, args)
      calls.push({ name, isError: result.isError === true })
      assert.ok(!result.isError, `${name}: ${result.content[0]?.text}`)
      return result.structuredContent
    }

    const me = await call('get_me')
    assert.equal(me.canWrite, true)
    assert.deepEqual(me.abilities, ['profile:read', 'profile:write'])
    const login = `mira.sound.${Date.now().toString(36)}`
    const { profile } = await call('create_profile', { login })
    const { file } = await call('upload_image_from_url', { url: portrait.url })
    await call('update_profile', {
      profileKey: profile.id,
      title: 'Mira Sound',
      description: 'Songwriter from Lisbon. New album out now.',
      avatar: file.path,
      socials: [{ link: 'instagram.com/mira.sound' }, { link: 'mailto:booking@mira.example' }],
    })
    const release = await call('lookup_music', { query: DISCOVERY_UPC })
    const { slots } = await call('create_slots', {
      profileKey: profile.id,
      slots: [
        { type: 'button', data: { title: 'Tour dates', link: 'mira.example/tour' } },
        { type: 'button', data: { title: 'Merch', link: 'mira.example/shop' } },
        { type: 'button', data: { title: 'Booking', link: 'mailto:booking@mira.example' } },
        release.slot,
        {
          type: 'faq',
          data: { title: 'Questions', items: [{ id: 'tickets', title: 'Where do I buy tickets?', text: 'On the tour page.' }] },
        },
      ],
    })
    assert.equal(slots.length, 5)
    const music = slots.find((s: any) => s.type === 'music')
    const order = [music.id, ...slots.filter((s: any) => s !== music).map((s: any) => s.id)]
    const reordered = await call('reorder_slots', { profileKey: profile.id, order })
    assert.deepEqual(
      reordered.slots.map((s: any) => s.id),
      order,
    )

    const { markdown } = await call('get_profile_markdown', { profileKey: login })
    assert.match(markdown, /Mira Sound/)
    assert.match(markdown, /Tour dates/)
    assert.match(markdown, /Where do I buy tickets\?/)
    assert.ok(markdown.indexOf(release.album) < markdown.indexOf('Tour dates'), 'the music block now comes first')

    // One visit by a person, then the statistics the agent reads back.
    const page = await fetch(`${t.url}/${login}`, { headers: { 'user-agent': BROWSER } })
    assert.equal(page.status, 200)
    await page.arrayBuffer()
    await t.ctx.intake.flush()
    const stats = await call('get_profile_analytics', { profileKey: login, period: 'today' })
    assert.equal(stats.analytics.totals.views, 1)
    assert.equal(stats.analytics.blocks.length, 5)

    assert.equal(calls.filter((c) => c.isError).length, 0)
    assert.ok(calls.length <= 12, `${calls.length} calls`)

    // The person disconnects the app in the dashboard; the agent's next call is refused at the door.
    const apps = await person.get('/settings/apps')
    const grantId = /action="\/settings\/apps\/(\d+)\/disconnect"/.exec(apps.text)?.[1]
    assert.ok(grantId, 'the connection is listed under /settings/apps')
    assert.equal((await person.submit('/settings/apps', {}, `/settings/apps/${grantId}/disconnect`)).status, 303)
    await assert.rejects(callTool(client, 'get_profile', { profileKey: login }), (e: unknown) => e instanceof SdkHttpError && e.status === 401)
  })
})
