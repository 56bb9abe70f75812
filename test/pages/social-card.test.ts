import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { CARD_HEIGHT, CARD_WIDTH, socialCardSvg, svgText } from '../../src/pages/social-card.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { BROWSER_UA } from './page-fixtures.ts'

const browser = { 'user-agent': BROWSER_UA, accept: 'text/html' }
const HOSTILE = `<script>alert("x")</script> & 'quoted' "name"`

/** The og:image and twitter:image of a page, checked to be the same URL. */
function previewImage(html: string): string {
  const og = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1]
  const twitter = /<meta name="twitter:image" content="([^"]+)">/.exec(html)?.[1]
  assert.ok(og, 'og:image is missing')
  assert.equal(twitter, og)
  return og.replaceAll('&amp;', '&')
}

describe('socialCardSvg', () => {
  it('escapes markup, ampersands and quotes in every text it draws', () => {
    const svg = socialCardSvg({ name: HOSTILE, address: 'http://x.test/a&b"<c>' })
    assert.doesNotMatch(svg, /<script/)
    assert.ok(svg.includes('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;quoted&#39;'), svg)
    assert.ok(svg.includes('x.test/a&#38;b&#34;&#60;c&#62;'), svg)
  })

  it('drops the control characters XML refuses', () => {
    assert.equal(svgText('a\u0000b\u001bc\td'), 'abc\td')
  })

  it('ends a long name in an ellipsis', () => {
    const svg = socialCardSvg({ name: 'x'.repeat(300), address: 'http://x.test/a' })
    assert.match(svg, />x{39}…</)
  })
})

describe(`GET /-/card/<profileId>/<version>.png (${STORE})`, () => {
  let t: TestApp
  let token: string
  let profileId: number
  let login: string

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    token = account.token
    const profile = await makeProfile(t, account.user)
    profileId = profile.id
    login = profile.login
  })
  after(() => t.close())

  const page = async () => {
    const res = await fetch(`${t.url}/${login}`, { headers: browser })
    assert.equal(res.status, 200)
    return res.text()
  }

  it('points og:image and twitter:image at the card when the page has no avatar or background', async () => {
    const html = await page()
    const image = previewImage(html)
    assert.match(image, new RegExp(`^${t.url}/-/card/${profileId}/[\\w-]+\\.png$`))
    assert.match(html, /<meta name="twitter:card" content="summary_large_image">/)
  })

  it('serves the card as a 1200×630 PNG with an ETag and a Cache-Control', async () => {
    const res = await fetch(previewImage(await page()))
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'image/png')
    assert.match(res.headers.get('cache-control') ?? '', /public, max-age=\d+/)
    const etag = res.headers.get('etag')
    assert.ok(etag)
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', CARD_WIDTH, CARD_HEIGHT])
    const again = await fetch(previewImage(await page()), { headers: { 'if-none-match': etag } })
    assert.equal(again.status, 304)
  })

  it('draws a title full of markup, ampersands and quotes without breaking the SVG', async () => {
    const patched = await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: HOSTILE } })
    assert.equal(patched.status, 200, patched.text)
    const res = await fetch(previewImage(await page()))
    assert.equal(res.status, 200)
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
    assert.deepEqual([meta.width, meta.height], [CARD_WIDTH, CARD_HEIGHT])
  })

  it('gives a new card, at a new address, when the title changes', async () => {
    await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: 'First title' } })
    const first = previewImage(await page())
    const firstBytes = Buffer.from(await (await fetch(first)).arrayBuffer())
    await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: 'A rather different second title' } })
    const second = previewImage(await page())
    assert.notEqual(second, first)
    const secondBytes = Buffer.from(await (await fetch(second)).arrayBuffer())
    assert.ok(!secondBytes.equals(firstBytes))
    // A preview that kept the old address gets the current card, not a stale one.
    const old = Buffer.from(await (await fetch(first)).arrayBuffer())
    assert.ok(old.equals(secondBytes))
  })

  it('answers 404 for an unknown profile or a malformed name', async () => {
    for (const path of [`/-/card/999999/x.png`, `/-/card/${profileId}/x.svg`, `/-/card/0/x.png`, `/-/card/abc/x.png`]) {
      const res = await fetch(`${t.url}${path}`)
      await res.arrayBuffer()
      assert.equal(res.status, 404, path)
    }
  })

  it('keeps the avatar as og:image when the page has one', async () => {
    const { solid } = await import('../media/images.ts')
    const form = new FormData()
    form.append('file', new Blob([await solid(300, 300, 'png')], { type: 'image/png' }), 'a.png')
    const up = await fetch(`${t.url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
    const file = (await up.json()) as { data: { path: string } }
    assert.equal(up.status, 201)
    await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { avatar: file.data.path } })
    assert.match(previewImage(await page()), new RegExp(`^${t.url}/static/`))
    // The card itself still draws, avatar included.
    const card = await fetch(`${t.url}/-/card/${profileId}/any.png`)
    const meta = await sharp(Buffer.from(await card.arrayBuffer())).metadata()
    assert.deepEqual([card.status, meta.width, meta.height], [200, CARD_WIDTH, CARD_HEIGHT])
  })
})
