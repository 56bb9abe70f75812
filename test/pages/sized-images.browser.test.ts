import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { type Browser, chromium } from 'playwright-core'
import sharp from 'sharp'
import { purgeUnusedFiles } from '../../src/media/file-purge.ts'
import { SQUARE_SIZES, squareKey, variantKey } from '../../src/media/storage.ts'
import { uploadService } from '../../src/media/uploads.ts'
import { filesRepository } from '../../src/store/files.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { solid } from '../media/images.ts'
import { startLocalS3 } from '../media/local-s3.ts'
import { BROWSER_UA } from './page-fixtures.ts'
import { CHROMIUM_LAUNCH, iconTransfer, PAGE_WEIGHT_BUDGET, photoAvatarPage, recordTransfers } from './page-weight.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'
const staticPath = (key: string) => `/static/${key}`

for (const driver of ['disk', 's3'] as const) {
  describe(`Images sized for their place (issue 32; ${STORE}, ${driver} storage)`, () => {
    let t: TestApp
    let s3: Awaited<ReturnType<typeof startLocalS3>> | undefined
    let browser: Browser
    let page: Awaited<ReturnType<typeof photoAvatarPage>>
    before(async () => {
      s3 = driver === 's3' ? await startLocalS3() : undefined
      t = await startApp(s3?.env ?? {})
      page = await photoAvatarPage(t)
      browser = await chromium.launch(CHROMIUM_LAUNCH)
    })
    after(async () => {
      await browser?.close()
      await t?.close()
      await s3?.close()
    })

    const get = async (path: string) => {
      const res = await fetch(`${t.url}${path}`)
      return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }
    }
    const html = async (url: string) => (await fetch(url)).text()

    it('names a new upload by the SHA-256 of the bytes it serves', async () => {
      const served = await get(staticPath(page.avatar))
      assert.equal(served.status, 200)
      const name = page.avatar.slice(page.avatar.indexOf('/') + 1, page.avatar.lastIndexOf('.'))
      assert.ok(name.startsWith(createHash('sha256').update(served.bytes).digest('base64url')), name)
    })

    it('shows the avatar and the icons as square WebP crops, the avatar at twice its 152 px display size', async () => {
      const doc = await html(page.url)
      const crop = (size: number) => `${t.url}${staticPath(squareKey(page.avatar, size as never))}`
      assert.ok(
        doc.includes(`<img class="avatar" src="${crop(304)}" srcset="${crop(240)} 240w, ${crop(304)} 304w" sizes="(min-width: 960px) 152px, 120px"`),
        doc,
      )
      assert.match(doc, new RegExp(`<link rel="icon" href="${t.url}${staticPath(squareKey(page.avatar, SQUARE_SIZES.favicon))}" type="image/webp">`))
      assert.match(doc, new RegExp(`<link rel="apple-touch-icon" href="${t.url}${staticPath(squareKey(page.avatar, SQUARE_SIZES.touchIcon))}">`))
      // The upload itself stays only where link previews read it (og:image, twitter:image).
      const uses = [...doc.matchAll(new RegExp(`<[^>]*${t.url}${staticPath(page.avatar)}"[^>]*>`, 'g'))].map((m) => m[0])
      assert.deepEqual(uses, [
        `<meta property="og:image" content="${t.url}${staticPath(page.avatar)}">`,
        `<meta name="twitter:image" content="${t.url}${staticPath(page.avatar)}">`,
      ])
      for (const size of Object.values(SQUARE_SIZES)) {
        const crop = await get(staticPath(squareKey(page.avatar, size)))
        assert.equal(crop.status, 200, `${size}`)
        assert.equal(crop.headers.get('content-type'), 'image/webp')
        assert.equal(crop.headers.get('cache-control'), IMMUTABLE)
        const meta = await sharp(crop.bytes).metadata()
        assert.deepEqual([meta.format, meta.width, meta.height], ['webp', size, size])
      }
    })

    it('serves uploads, variants and crops immutable, and answers a revalidation with 304', async () => {
      for (const key of [page.avatar, variantKey(page.avatar, 400), squareKey(page.avatar, SQUARE_SIZES.avatar)]) {
        const res = await get(staticPath(key))
        assert.equal(res.status, 200, key)
        assert.equal(res.headers.get('cache-control'), IMMUTABLE, key)
        const again = await fetch(`${t.url}${staticPath(key)}`, { headers: { 'if-none-match': res.headers.get('etag')! } })
        assert.equal(again.status, 304, key)
      }
    })

    it('makes no crop of another size, and none for an upload that is not there', async () => {
      assert.equal((await get(staticPath(`${page.avatar.slice(0, page.avatar.lastIndexOf('.'))}.s500.webp`))).status, 404)
      assert.equal((await get(staticPath(squareKey(`u1/${'A'.repeat(22)}.png`, SQUARE_SIZES.avatar)))).status, 404)
    })

    it('keeps a page stored before issue 32 whole: its random-named avatar is still served, its crops made on first request', async () => {
      const { user } = await makeAccount(t)
      const profile = await makeProfile(t, user)
      // An upload as the service stored them before: a random name, no crops.
      const old = `u${user.id}/${randomBytes(16).toString('base64url')}.png`
      const bytes = await solid(500, 300, 'png', '#884422')
      await t.ctx.media.storage.put(old, { data: bytes }, 'image/png')
      await filesRepository.insert(t.ctx.db, { userId: user.id, path: old, mime: 'image/png', size: bytes.length, width: 500, height: 300 })
      await profilesRepository.update(t.ctx.db, profile.id, { avatar: old })

      const original = await get(staticPath(old))
      assert.equal(original.status, 200)
      assert.deepEqual(original.bytes, bytes)
      assert.equal(original.headers.get('cache-control'), IMMUTABLE)
      const context = await browser.newContext({ userAgent: BROWSER_UA })
      const tab = await context.newPage()
      await tab.goto(`${t.url}/${profile.login}`, { waitUntil: 'load' })
      const avatar = tab.getByRole('img', { name: profile.login })
      // 152 px at 1× on this desktop-sized window: the 240 px crop.
      const shown = await avatar.evaluate((img: HTMLImageElement) => [img.complete, img.naturalWidth > 0, new URL(img.currentSrc).pathname].join(' '))
      assert.equal(shown, `true true ${staticPath(squareKey(old, SQUARE_SIZES.phoneAvatar))}`)
      await context.close()
      assert.ok(await t.ctx.media.storage.get(squareKey(old, SQUARE_SIZES.phoneAvatar)), 'the crop is stored for the next visitor')
    })

    it('deletes the crops with their upload', async () => {
      const { user } = await makeAccount(t)
      const bytes = await solid(600, 600, 'jpeg', '#225588')
      const file = (await uploadService.fromStream(t.ctx, user.id, Readable.from([bytes]), bytes.length, { dryRun: false }))!
      const crop = squareKey(file.path, SQUARE_SIZES.avatar)
      assert.equal((await get(staticPath(crop))).status, 200)
      await t.ctx.db
        .updateTable('files')
        .set({ created_at: new Date(Date.now() - 40 * 86_400_000).toISOString() })
        .where('path', '=', file.path)
        .execute()
      const { removed } = await purgeUnusedFiles(t.ctx, 7 * 86_400_000)
      assert.ok(removed.some((f) => f.path === file.path))
      assert.equal(await t.ctx.media.storage.get(crop), undefined)
    })

    it('shows a cover through its WebP variants by width', async () => {
      const { user } = await makeAccount(t)
      const profile = await makeProfile(t, user)
      const bytes = await solid(1600, 900, 'png', '#336699')
      const cover = (await uploadService.fromStream(t.ctx, user.id, Readable.from([bytes]), bytes.length, { dryRun: false }))!
      await profilesRepository.update(t.ctx.db, profile.id, { bgImage: cover.path })
      const doc = await html(`${t.url}/${profile.login}`)
      const srcset = [400, 800].map((w) => `${t.url}${staticPath(variantKey(cover.path, w))} ${w}w`).join(', ')
      assert.match(
        doc,
        new RegExp(`<img class="cover" src="${t.url}${staticPath(cover.path)}" srcset="${srcset}" sizes="[^"]+" alt="" width="800" height="450"`),
      )
    })

    for (const viewport of [
      { width: 375, height: 800 },
      { width: 1280, height: 800 },
    ]) {
      it(`transfers at most 60 KB in all for the page with a 2000 px photo avatar, at ${viewport.width} px`, async () => {
        const context = await browser.newContext({ userAgent: BROWSER_UA, viewport })
        const tab = await context.newPage()
        const transfers = await recordTransfers(tab)
        await tab.goto(page.url, { waitUntil: 'load' })
        await tab.waitForLoadState('networkidle')
        const seen = transfers()
        const icon = await iconTransfer(tab)
        const all = icon && !seen.some((r) => r.url === icon.url) ? [...seen, icon] : seen
        await context.close()
        const total = all.reduce((sum, r) => sum + r.bytes, 0)
        const listing = all.map((r) => `${r.status} ${r.bytes} B ${new URL(r.url).pathname}`).join('\n')
        assert.ok(
          all.every((r) => r.status === 200),
          listing,
        )
        const crops = [SQUARE_SIZES.avatar, SQUARE_SIZES.phoneAvatar].map((size) => staticPath(squareKey(page.avatar, size)))
        assert.ok(
          all.some((r) => crops.some((crop) => r.url.endsWith(crop))),
          listing,
        )
        assert.ok(total <= PAGE_WEIGHT_BUDGET, `${total} B > ${PAGE_WEIGHT_BUDGET} B:\n${listing}`)
      })
    }
  })
}
