import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { buildApp, closeContext, createContext } from '../../src/app.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { BROWSER_UA, buildDemoPage } from './page-fixtures.ts'

const browser = { 'user-agent': BROWSER_UA, accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }

async function pageAnalytics(t: TestApp, token: string, profileId: number) {
  await t.ctx.intake.flush()
  const res = await t.request('GET', `/v1/profiles/${profileId}/analytics?period=today&compare=false`, { token })
  assert.equal(res.status, 200, res.text)
  return res.body.data
}

const attr = (html: string, selector: RegExp) => [...html.matchAll(selector)].map((m) => m[1])

describe(`GET /<login> (${STORE})`, () => {
  let t: TestApp
  let token: string
  let profileId: number
  let slotIds: number[]
  const login = 'jane.doe'

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    token = account.token
    const profile = await makeProfile(t, account.user, login)
    profileId = profile.id
    ;({ slotIds } = await buildDemoPage(t, account.user, account.token, profile))
  })
  after(() => t.close())

  it('serves the page as HTML with title, description, OpenGraph, Twitter and canonical tags', async () => {
    const res = await t.request('GET', `/${login}`, { headers: browser })
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    assert.match(res.text, /^<!doctype html>\n<html lang="en" dir="ltr">/)
    assert.match(res.text, /<title>Jane Doe<\/title>/)
    assert.match(res.text, /<meta name="description" content="Illustrator &amp; maker of small things\. Based in Lisbon, open for commissions\.">/)
    assert.match(res.text, new RegExp(`<link rel="canonical" href="${t.url}/jane\\.doe">`))
    assert.match(res.text, /<meta property="og:title" content="Jane Doe">/)
    assert.match(res.text, new RegExp(`<meta property="og:image" content="${t.url}/static/u\\d+/[\\w-]+\\.png">`))
    assert.match(res.text, /<meta name="twitter:card" content="summary_large_image">/)
    assert.match(res.text, /<p class="bio">Illustrator &amp; maker of small things\.\nBased in Lisbon/)
  })

  it('renders every supported slot in page order and leaves the legacy slot out', async () => {
    const res = await t.request('GET', `/${login}`, { headers: browser })
    assert.deepEqual(attr(res.text, /<div class="block block-\w+" id="slot-(\d+)">/g).map(Number), slotIds)
    const types = attr(res.text, /<div class="block block-(\w+)"/g)
    for (const type of ['button', 'picture', 'gallery', 'text', 'youtube', 'faq', 'divider', 'music', 'event', 'form']) assert.ok(types.includes(type), type)
    assert.doesNotMatch(res.text, /countdown/)
  })

  it('draws one icon per social link, each through the click redirect', async () => {
    const res = await t.request('GET', `/${login}`, { headers: browser })
    const socials = attr(res.text, /<a class="social" (href="[^"]+" data-social-index="\d+")/g)
    assert.deepEqual(
      socials,
      [0, 1, 2, 3, 4].map((order) => `href="/-/go/${profileId}/s${order}" data-social-index="${order}"`),
    )
    assert.deepEqual(attr(res.text, /<a class="social"[^>]* aria-label="([^"]+)"/g), ['Instagram', 'GitHub', 'Spotify', 'E-mail', 'Website'])
  })

  it('sends every outbound link through the same-origin click redirect with rel="noopener"', async () => {
    const res = await t.request('GET', `/${login}`, { headers: browser })
    const anchors = [...res.text.matchAll(/<a\s[^>]*>/g)].map((m) => m[0])
    assert.ok(anchors.length >= 15)
    for (const a of anchors) {
      assert.match(a, /href="\/-\/go\/\d+\/(\d+\/\d+|s\d+)"/, a)
      assert.match(a, /data-(slot-id|social-index)="\d+"/, a)
      assert.match(a, /rel="[^"]*noopener/, a)
    }
  })

  it('sends a Content-Security-Policy that allows only its own hashed script and style', async () => {
    const res = await t.request('GET', `/${login}`, { headers: browser })
    const csp = String(res.headers['content-security-policy'])
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`
    const script = /<script>([\s\S]*?)<\/script>/.exec(res.text)![1]
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.text)![1]
    assert.match(csp, /(^|; )default-src 'none'/)
    assert.ok(csp.includes(`script-src ${hash(script)}`), csp)
    assert.ok(csp.includes(`style-src ${hash(style)}`), csp)
    assert.doesNotMatch(csp, /script-src[^;]*unsafe/)
    // Remote covers and thumbnails come through /-/remote/: no image host is trusted.
    assert.match(csp, /img-src 'self' [^;]*data:/)
    assert.doesNotMatch(csp, /img-src[^;]*https:/)
    assert.match(csp, /frame-ancestors 'none'/)
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
  })

  it('serves the markdown view for Accept: text/markdown, and varies on Accept', async () => {
    const md = await t.request('GET', `/${login}`, { headers: { accept: 'text/markdown' } })
    assert.equal(md.status, 200)
    assert.equal(md.headers['content-type'], 'text/markdown; charset=utf-8')
    assert.match(md.text, /^# Jane Doe\n/)
    assert.match(String(md.headers.vary), /Accept/)
    assert.ok(Number(md.headers['x-markdown-tokens']) > 0)
    const html = await t.request('GET', `/${login}`, { headers: { accept: 'text/markdown;q=0.5, text/html' } })
    assert.equal(html.headers['content-type'], 'text/html; charset=utf-8')
    assert.match(String(html.headers.vary), /Accept/)
    assert.notEqual(md.headers.etag, html.headers.etag)
  })

  it('answers a matching If-None-Match with 304 and still counts the view', async () => {
    const before = (await pageAnalytics(t, token, profileId)).totals.views
    const first = await t.request('GET', `/${login}`, { headers: browser })
    assert.match(String(first.headers.etag), /^"[\w-]{27}"$/)
    assert.equal(first.headers['cache-control'], 'no-cache')
    const again = await t.request('GET', `/${login}`, { headers: { ...browser, 'if-none-match': String(first.headers.etag) } })
    assert.equal(again.status, 304)
    assert.equal(again.text, '')
    assert.equal(again.headers.etag, first.headers.etag)
    assert.equal((await pageAnalytics(t, token, profileId)).totals.views, before + 2)
  })

  it('does not count crawlers, HEAD requests or prefetches as views', async () => {
    const before = (await pageAnalytics(t, token, profileId)).totals.views
    assert.equal((await t.request('GET', `/${login}`, { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } })).status, 200)
    assert.equal((await t.request('HEAD', `/${login}`, { headers: browser })).status, 200)
    assert.equal((await t.request('GET', `/${login}`, { headers: { ...browser, 'sec-purpose': 'prefetch' } })).status, 200)
    assert.equal((await pageAnalytics(t, token, profileId)).totals.views, before)
  })

  it('serves the changed page right after a PATCH of the profile or of a slot', async () => {
    const cached = await t.request('GET', `/${login}`, { headers: browser })
    const patched = await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: 'Jane D. Studio' } })
    assert.equal(patched.status, 200)
    const fresh = await t.request('GET', `/${login}`, { headers: browser })
    assert.match(fresh.text, /<title>Jane D\. Studio<\/title>/)
    assert.notEqual(fresh.headers.etag, cached.headers.etag)
    const stale = await t.request('GET', `/${login}`, { headers: { ...browser, 'if-none-match': String(cached.headers.etag) } })
    assert.equal(stale.status, 200)

    const slot = await t.request('PATCH', `/v1/profiles/${profileId}/slots/${slotIds[0]}`, { token, body: { data: { title: 'Prints, fresh off the press' } } })
    assert.equal(slot.status, 200, slot.text)
    assert.match((await t.request('GET', `/${login}`, { headers: browser })).text, /Prints, fresh off the press/)
    const md = await t.request('GET', `/${login}`, { headers: { accept: 'text/markdown' } })
    assert.match(md.text, /Prints, fresh off the press/)
  })

  it('serves any spelling of the login under the canonical address', async () => {
    const res = await t.request('GET', '/JANE.Doe', { headers: browser })
    assert.equal(res.status, 200)
    assert.match(res.text, new RegExp(`<link rel="canonical" href="${t.url}/jane\\.doe">`))
  })

  it('answers unknown logins with the HTML 404 page', async () => {
    const res = await t.request('GET', '/nobody.here', { headers: browser })
    assert.equal(res.status, 404)
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    assert.match(res.text, /<h1>This page does not exist<\/h1>/)
    assert.doesNotMatch(res.text, /nobody\.here/)
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/)
  })

  it('answers the old login with 404 as soon as the login changes', async () => {
    const account = await makeAccount(t)
    const profile = await makeProfile(t, account.user, 'old.address')
    assert.equal((await t.request('GET', '/old.address', { headers: browser })).status, 200)
    const moved = await t.request('PATCH', `/v1/profiles/${profile.id}/settings`, { token: account.token, body: { login: 'new.address' } })
    assert.equal(moved.status, 200, moved.text)
    assert.equal((await t.request('GET', '/old.address', { headers: browser })).status, 404)
    assert.equal((await t.request('GET', '/new.address', { headers: browser })).status, 200)
  })

  it('answers an unpublished page with 404', async () => {
    const account = await makeAccount(t)
    const profile = await makeProfile(t, account.user, 'hidden.page')
    assert.equal((await t.request('GET', '/hidden.page', { headers: browser })).status, 200)
    // The dashboard unpublishes; like every write it announces the change.
    await profilesRepository.update(t.ctx.db, profile.id, { status: false })
    t.ctx.events.emit('profile-changed', { profileId: profile.id, logins: [profile.login] })
    assert.equal((await t.request('GET', '/hidden.page', { headers: browser })).status, 404)
    assert.equal((await t.request('GET', '/hidden.page/qr.svg')).status, 404)
  })

  it('leaves paths that no login can take to the other routes', async () => {
    assert.equal((await t.request('GET', '/abc')).headers['content-type'], 'application/json; charset=utf-8')
    assert.equal((await t.request('GET', '/v1')).status, 200)
  })

  it('answers cache hits over the network exactly as the first render', async () => {
    const url = `${t.url}/${login}`
    t.ctx.events.emit('profile-changed', { profileId, logins: [login] })
    const first = await fetch(url, { headers: browser })
    const firstBody = await first.text()
    // The render went through Fastify (which tags every answer it logs); the hits below do not.
    assert.ok(first.headers.get('x-request-id'))
    const names = ['content-type', 'content-length', 'etag', 'cache-control', 'vary', 'content-security-policy', 'x-content-type-options', 'referrer-policy']
    for (let i = 0; i < 3; i++) {
      const hit = await fetch(`${url}${['', '/', '?utm_source=qr'][i]}`, { headers: browser })
      assert.equal(hit.status, 200)
      assert.equal(await hit.text(), firstBody)
      assert.equal(hit.headers.get('x-request-id'), null)
      for (const name of names) assert.equal(hit.headers.get(name), first.headers.get(name), name)
    }
    const notModified = await fetch(url, { headers: { ...browser, 'if-none-match': first.headers.get('etag')! } })
    assert.equal(notModified.status, 304)
    assert.equal(notModified.headers.get('etag'), first.headers.get('etag'))
    assert.equal(notModified.headers.get('content-security-policy'), first.headers.get('content-security-policy'))
    const head = await fetch(url, { method: 'HEAD', headers: browser })
    assert.equal(head.status, 200)
    assert.equal(head.headers.get('content-length'), first.headers.get('content-length'))
    assert.equal(await head.text(), '')
    const md = await fetch(url, { headers: { accept: 'text/markdown' } })
    const mdAgain = await fetch(url, { headers: { accept: 'text/markdown' } })
    assert.equal(mdAgain.headers.get('content-type'), 'text/markdown; charset=utf-8')
    assert.equal(await mdAgain.text(), await md.text())
  })

  it('counts every GET over the network, cache hits and 304s included, but not HEAD', async () => {
    const before = (await pageAnalytics(t, token, profileId)).totals.views
    const url = `${t.url}/${login}`
    const first = await fetch(url, { headers: browser })
    await first.arrayBuffer()
    await (await fetch(url, { headers: browser })).arrayBuffer()
    await fetch(url, { headers: { ...browser, 'if-none-match': first.headers.get('etag')! } })
    await fetch(url, { method: 'HEAD', headers: browser })
    await (await fetch(url, { headers: { accept: 'text/markdown', 'user-agent': BROWSER_UA } })).arrayBuffer()
    await (await fetch(url, { headers: { ...browser, 'user-agent': 'curl/8.5.0' } })).arrayBuffer()
    assert.equal((await pageAnalytics(t, token, profileId)).totals.views, before + 3)
  })

  it('drops a page changed through another instance (Redis publish/subscribe)', { skip: STORE !== 'postgres' && 'needs Redis' }, async () => {
    // A second process on the same store and Redis prefix.
    const { rows } = await import('kysely').then(({ sql }) => sql<{ s: string }>`SELECT current_schema() AS s`.execute(t.ctx.db))
    const other = await createContext({ ...t.ctx.config }, { schema: rows[0].s, redisPrefix: t.ctx.redis!.options.keyPrefix, logger: t.ctx.log })
    const otherApp = await buildApp(other)
    await otherApp.ready()
    try {
      const cached = await otherApp.inject({ url: `/${login}`, headers: browser })
      assert.equal(cached.statusCode, 200)
      assert.equal((await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: 'Changed elsewhere' } })).status, 200)
      let body = ''
      for (let i = 0; i < 250 && !body.includes('Changed elsewhere'); i++) {
        await new Promise((r) => setTimeout(r, 20))
        body = (await otherApp.inject({ url: `/${login}`, headers: browser })).body
      }
      assert.match(body, /<title>Changed elsewhere<\/title>/)
    } finally {
      await otherApp.close()
      await closeContext(other)
    }
  })
})

describe(`GET /<login>/qr.svg and /<login>/qr.png (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
    const { user } = await makeAccount(t)
    await makeProfile(t, user, 'qr.owner')
  })
  after(() => t.close())

  it('draws the page address as an SVG that may be cached', async () => {
    const res = await t.request('GET', '/qr.owner/qr.svg')
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'image/svg+xml')
    assert.match(res.text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/)
    assert.match(String(res.headers['cache-control']), /^public, max-age=\d+/)
    const again = await t.request('GET', '/QR.OWNER/qr.svg', { headers: { 'if-none-match': String(res.headers.etag) } })
    assert.equal(again.status, 304)
  })

  it('draws the page address as a PNG', async () => {
    const res = await t.app.inject({ url: '/qr.owner/qr.png' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'image/png')
    const meta = await sharp(res.rawPayload).metadata()
    assert.equal(meta.format, 'png')
    assert.equal(meta.width, meta.height)
  })

  it('draws a different code for a different address', async () => {
    const { user } = await makeAccount(t)
    await makeProfile(t, user, 'qr.other')
    const a = await t.request('GET', '/qr.owner/qr.svg')
    const b = await t.request('GET', '/qr.other/qr.svg')
    assert.notEqual(a.text, b.text)
  })

  it('answers 404 for a login no page holds', async () => {
    const res = await t.request('GET', '/qr.nobody/qr.png')
    assert.equal(res.status, 404)
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
  })
})

describe(`GET /-/go/{profileId}/{slotId}/{index} and /-/go/{profileId}/s{order} (${STORE})`, () => {
  let t: TestApp
  let token: string
  let profileId: number
  let slotIds: number[]
  let otherProfileId: number
  let otherSlotId: number

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    token = account.token
    const profile = await makeProfile(t, account.user, 'click.page')
    profileId = profile.id
    ;({ slotIds } = await buildDemoPage(t, account.user, account.token, profile))
    const other = await makeAccount(t)
    const otherProfile = await makeProfile(t, other.user, 'other.page')
    otherProfileId = otherProfile.id
    const created = await t.request('POST', `/v1/profiles/${otherProfile.id}/slots`, {
      token: other.token,
      body: { type: 'button', data: { title: 'Elsewhere', link: 'https://other.example/' } },
    })
    otherSlotId = created.body.data.id
  })
  after(() => t.close())

  const go = (path: string, ua = BROWSER_UA) => t.request('GET', path, { headers: { 'user-agent': ua } })

  it("redirects to the slot's destination with 302 and counts the click", async () => {
    const res = await go(`/-/go/${profileId}/${slotIds[0]}/0`)
    assert.equal(res.status, 302)
    assert.equal(res.headers.location, 'https://example.org/shop')
    assert.equal(res.headers['cache-control'], 'no-store')
    const data = await pageAnalytics(t, token, profileId)
    assert.equal(data.blocks.find((b: any) => b.slotId === slotIds[0]).clicks, 1)
  })

  it('leads to each destination of a block with several links by index', async () => {
    const gallery = slotIds[4]
    assert.equal((await go(`/-/go/${profileId}/${gallery}/0`)).headers.location, 'https://example.org/harbour')
    assert.equal((await go(`/-/go/${profileId}/${gallery}/1`)).headers.location, 'https://example.org/third')
    assert.equal((await go(`/-/go/${profileId}/${gallery}/2`)).status, 404)
  })

  it('follows a changed link at once', async () => {
    const patched = await t.request('PATCH', `/v1/profiles/${profileId}/slots/${slotIds[0]}`, {
      token,
      body: { data: { link: 'https://example.org/new-shop' } },
    })
    assert.equal(patched.status, 200, patched.text)
    assert.equal((await go(`/-/go/${profileId}/${slotIds[0]}/0`)).headers.location, 'https://example.org/new-shop')
  })

  it('redirects a social icon to its link and counts it under its order', async () => {
    const res = await go(`/-/go/${profileId}/s1`)
    assert.equal(res.status, 302)
    assert.equal(res.headers.location, 'https://github.com/jane')
    assert.equal((await go(`/-/go/${profileId}/s3`)).headers.location, 'mailto:jane@example.com')
    const data = await pageAnalytics(t, token, profileId)
    assert.equal(data.socials.find((s: any) => s.order === 1).clicks, 1)
  })

  it('redirects crawlers too but does not count them', async () => {
    const before = (await pageAnalytics(t, token, profileId)).totals.clicks
    const res = await go(`/-/go/${profileId}/${slotIds[3]}/0`, 'facebookexternalhit/1.1')
    assert.equal(res.status, 302)
    assert.equal(res.headers.location, 'https://example.org/picture')
    assert.equal((await pageAnalytics(t, token, profileId)).totals.clicks, before)
  })

  it('never takes its destination from the request', async () => {
    const res = await go(`/-/go/${profileId}/${slotIds[0]}/0?url=https://evil.example/&to=https://evil.example/`)
    assert.equal(res.status, 302)
    assert.equal(res.headers.location, 'https://example.org/new-shop')
  })

  it('answers 404 for an index, slot, social or page that does not lead anywhere', async () => {
    for (const path of [
      `/-/go/${profileId}/${slotIds[0]}/1`, // a button has one destination
      `/-/go/${profileId}/${slotIds[8]}/0`, // a divider has none
      `/-/go/${profileId}/${otherSlotId}/0`, // another page's slot
      `/-/go/${otherProfileId}/${slotIds[0]}/0`,
      `/-/go/${profileId}/999999/0`,
      `/-/go/${profileId}/s9`,
      `/-/go/999999/s0`,
      `/-/go/${profileId}/${slotIds[0]}/-1`,
      `/-/go/${profileId}/x/0`,
      `/-/go/${profileId}/https%3A%2F%2Fevil.example`,
    ]) {
      const res = await go(path)
      assert.equal(res.status, 404, path)
      assert.equal(res.headers.location, undefined)
    }
  })

  it('refuses a stored link with a scheme pages never follow', async () => {
    // A row written before today's rules: the redirect re-checks what it would follow.
    await profilesRepository.update(t.ctx.db, otherProfileId, { socials: [{ link: 'javascript:alert(1)', order: 0 }] })
    assert.equal((await go(`/-/go/${otherProfileId}/s0`)).status, 404)
    const page = await t.request('GET', '/other.page', { headers: browser })
    assert.doesNotMatch(page.text, /javascript:/)
  })

  it('answers 404 once the page is unpublished', async () => {
    await profilesRepository.update(t.ctx.db, otherProfileId, { status: false })
    assert.equal((await go(`/-/go/${otherProfileId}/${otherSlotId}/0`)).status, 404)
  })
})
