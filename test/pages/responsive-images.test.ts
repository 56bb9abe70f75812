import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { variantKey } from '../../src/media/storage.ts'
import { filesRepository } from '../../src/store/files.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { BROWSER_UA, uploadImage } from './page-fixtures.ts'

const browser = { 'user-agent': BROWSER_UA, accept: 'text/html' }

/** The markup of slot `id` on the page (its block, up to the next one). */
function blockOf(html: string, id: number): string {
  const start = html.indexOf(`id="slot-${id}"`)
  assert.ok(start >= 0, `slot ${id} is on the page`)
  const next = html.indexOf('<div class="block ', start)
  return html.slice(start, next < 0 ? undefined : next)
}

describe(`Images on the public page (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('offers a picture as WebP at 400 and 800 px beside the upload, with its size on the img', async () => {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const image = await uploadImage(t, user, 1600, 1000, '#123456', '#abcdef')
    const own = await t.request('POST', `/v1/profiles/${profile.id}/slots`, { token, body: { type: 'picture', data: { path: image.path, size: 'medium' } } })
    assert.equal(own.status, 201, own.text)
    const html = (await t.request('GET', `/${profile.login}`, { headers: browser })).text
    const block = blockOf(html, own.body.data.id)
    const w400 = `${t.url}/static/${variantKey(image.path, 400)}`
    const w800 = `${t.url}/static/${variantKey(image.path, 800)}`
    assert.match(
      block,
      new RegExp(
        `<picture><source type="image/webp" srcset="${esc(w400)} 400w, ${esc(w800)} 800w" sizes="\\(max-width: 600px\\) calc\\(72vw - 23px\\), 409px">` +
          `<img src="${esc(image.src)}" alt="" width="800" height="500" loading="eager"></picture>`,
      ),
    )
  })

  it('renders a gallery with srcset, width and height per item; only the first image-bearing slot loads eagerly', async () => {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const [a, b, small] = [
      await uploadImage(t, user, 1200, 900, '#aa0000', '#00aa00'),
      await uploadImage(t, user, 640, 640, '#0000aa', '#aaaa00'),
      await uploadImage(t, user, 300, 200, '#00aaaa', '#aa00aa'),
    ]
    const post = async (body: unknown) => {
      const res = await t.request('POST', `/v1/profiles/${profile.id}/slots`, { token, body })
      assert.equal(res.status, 201, res.text)
      return res.body.data.id as number
    }
    const button = await post({ type: 'button', data: { title: 'Shop', link: 'https://example.com' } })
    const gallery = await post({
      type: 'gallery',
      data: { title: 'Work', items: [{ path: a.path, text: 'First', alt: 'A first photo' }, { path: b.path }, { path: small.path }] },
    })
    const picture = await post({ type: 'picture', data: { path: a.path } })
    const html = (await t.request('GET', `/${profile.login}`, { headers: browser })).text
    assert.doesNotMatch(blockOf(html, button), /<img/)

    const items = [...blockOf(html, gallery).matchAll(/<li>.*?<\/li>/g)].map((m) => m[0])
    assert.equal(items.length, 3)
    assert.match(
      items[0],
      new RegExp(`srcset="${esc(t.url)}/static/${esc(variantKey(a.path, 400))} 400w, ${esc(t.url)}/static/${esc(variantKey(a.path, 800))} 800w"`),
    )
    assert.match(items[0], /<img src="[^"]+" alt="A first photo" width="800" height="600" loading="eager">/)
    assert.match(items[1], new RegExp(`srcset="[^"]+${esc(variantKey(b.path, 400))} 400w, [^"]+${esc(variantKey(b.path, 640))} 640w"`))
    assert.match(items[1], /<img src="[^"]+" alt="" width="640" height="640" loading="lazy" decoding="async">/)
    // At most 400 px wide: no variants, but its size is still known.
    assert.doesNotMatch(items[2], /<picture|srcset/)
    assert.match(items[2], /<img src="[^"]+" alt="" width="300" height="200" loading="lazy" decoding="async">/)

    assert.match(blockOf(html, picture), /<img src="[^"]+" alt="" width="800" height="600" loading="lazy" decoding="async"><\/picture>/)
  })

  it('renders an upload stored before variants existed as the plain img it was', async () => {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const legacy = `u${user.id}/${randomBytes(12).toString('base64url')}.png`
    await filesRepository.insert(t.ctx.db, { userId: user.id, path: legacy, mime: 'image/png', size: 100, width: null, height: null })
    const res = await t.request('POST', `/v1/profiles/${profile.id}/slots`, { token, body: { type: 'picture', data: { path: legacy } } })
    assert.equal(res.status, 201, res.text)
    const html = (await t.request('GET', `/${profile.login}`, { headers: browser })).text
    const block = blockOf(html, res.body.data.id)
    assert.doesNotMatch(block, /<picture|srcset|width=/)
    assert.match(block, new RegExp(`<img src="${esc(t.url)}/static/${esc(legacy)}" alt="" loading="eager">`))
  })

  it('keeps computed.src alone in the API: variants are the page’s business', async () => {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const image = await uploadImage(t, user, 900, 600, '#102030', '#405060')
    const res = await t.request('POST', `/v1/profiles/${profile.id}/slots`, { token, body: { type: 'picture', data: { path: image.path } } })
    assert.deepEqual(res.body.data.computed, { src: image.src })
  })
})

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
