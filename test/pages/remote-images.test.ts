import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { remoteImageUrl, verifiedRemoteUrl } from '../../src/rendering/remote-image-url.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { solid } from '../media/images.ts'
import { BROWSER_UA } from './page-fixtures.ts'

const browser = { 'user-agent': BROWSER_UA, accept: 'text/html' }

/** The fake image host: the only upstream the proxy may reach, on 127.0.0.1. */
async function imageHost(): Promise<{ server: Server; port: number; hits: string[] }> {
  const cover = await solid(600, 600, 'jpeg', '#aa3355')
  const thumbnail = await solid(480, 360, 'jpeg', '#2d3142')
  const hits: string[] = []
  const server = createServer((req, res) => {
    const url = req.url ?? '/'
    hits.push(url)
    if (url === '/cover.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(cover)
    if (url === '/vi/dQw4w9WgXcQ/hqdefault.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(thumbnail)
    if (url === '/page.jpg') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not an image</html>')
    if (url === '/huge.jpg') {
      // No Content-Length: the limit must hold while reading.
      res.writeHead(200, { 'content-type': 'image/jpeg' })
      const chunk = Buffer.alloc(1024 * 1024)
      for (let i = 0; i < 6; i++) res.write(chunk)
      return void res.end()
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { server, port: (server.address() as AddressInfo).port, hits }
}

const imgSources = (html: string, className: string) =>
  [...html.matchAll(new RegExp(`<img class="${className}" src="([^"]+)"`, 'g'))].map((m) => m[1].replaceAll('&amp;', '&'))

describe(`GET /-/remote/<signature>/<id> (${STORE})`, () => {
  let t: TestApp
  let host: Awaited<ReturnType<typeof imageHost>>
  let base: string
  let html: string

  before(async () => {
    host = await imageHost()
    base = `http://127.0.0.1:${host.port}`
    t = await startApp({ UPLOAD_URL_ALLOW_HOSTS: `127.0.0.1:${host.port}`, YOUTUBE_THUMBNAIL_URL: base })
    const account = await makeAccount(t)
    const profile = await makeProfile(t, account.user)
    const music = (album: string, thumbnail: string) => ({ type: 'music', data: { album, thumbnail, links: [{ link: 'https://open.spotify.com/album/x' }] } })
    const created = await t.request('POST', `/v1/profiles/${profile.id}/slots/batch`, {
      token: account.token,
      body: {
        slots: [
          music('Cover', `${base}/cover.jpg`),
          music('Not an image', `${base}/page.jpg`),
          music('Too large', `${base}/huge.jpg`),
          { type: 'youtube', data: { link: 'https://youtu.be/dQw4w9WgXcQ' } },
        ],
      },
    })
    assert.equal(created.status, 201, created.text)
    // The API still shows the upstream addresses (spec: computed.thumbnailUrl is YouTube's).
    assert.equal(created.body.data[3].computed.thumbnailUrl, 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg')
    assert.equal(created.body.data[0].data.thumbnail, `${base}/cover.jpg`)
    const res = await fetch(`${t.url}/${profile.login}`, { headers: browser })
    assert.equal(res.status, 200)
    html = await res.text()
  })
  after(async () => {
    await t.close()
    host.server.closeAllConnections()
    await new Promise((r) => host.server.close(r))
  })

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.url}${path}`, { headers })

  it('puts our own signed URLs in the page for music covers and video thumbnails', () => {
    const covers = imgSources(html, 'slot-music-cover')
    assert.equal(covers.length, 3)
    for (const src of covers) assert.match(src, /^\/-\/remote\/[\w-]{22}\/[\w-]+$/)
    const thumb = /<div class="slot-youtube-frame"[^>]*><a [^>]*><img src="([^"]+)"/.exec(html)?.[1]
    assert.match(thumb ?? '', /^\/-\/remote\/[\w-]{22}\/[\w-]+$/)
    assert.doesNotMatch(html, /ytimg|127\.0\.0\.1:\d+\/cover/)
  })

  it('serves the cover from our origin, fetched once, with a long Cache-Control', async () => {
    const [src] = imgSources(html, 'slot-music-cover')
    const before = host.hits.filter((h) => h === '/cover.jpg').length
    const res = await get(src)
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'image/webp')
    assert.match(res.headers.get('cache-control') ?? '', /public, max-age=\d{7,}/)
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
    assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 600, 600])
    const again = await get(src)
    assert.equal(again.status, 200)
    await again.arrayBuffer()
    const revalidated = await get(src, { 'if-none-match': res.headers.get('etag')! })
    assert.equal(revalidated.status, 304)
    assert.equal(host.hits.filter((h) => h === '/cover.jpg').length, before + 1)
  })

  it('fetches the video thumbnail from the configured thumbnail host', async () => {
    const thumb = /<div class="slot-youtube-frame"[^>]*><a [^>]*><img src="([^"]+)"/.exec(html)![1].replaceAll('&amp;', '&')
    const res = await get(thumb)
    assert.equal(res.status, 200)
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
    assert.deepEqual([meta.width, meta.height], [480, 360])
    assert.ok(host.hits.includes('/vi/dQw4w9WgXcQ/hqdefault.jpg'))
  })

  it('answers 404 to a tampered signature or address, without asking the upstream', async () => {
    const [src] = imgSources(html, 'slot-music-cover')
    const [, , , signature, id] = src.split('/')
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
    const other = Buffer.from(`${base}/vi/dQw4w9WgXcQ/hqdefault.jpg`).toString('base64url')
    const hits = host.hits.length
    for (const path of [`/-/remote/${flipped}/${id}`, `/-/remote/${signature}/${other}`, `/-/remote/short/${id}`, `/-/remote/${signature}/${id}!`]) {
      const res = await get(path)
      await res.arrayBuffer()
      assert.equal(res.status, 404, path)
    }
    assert.equal(host.hits.length, hits)
  })

  it('refuses an upstream answering something that is not an image, or too much, with a 404 and not again at once', async () => {
    const [, notImage, tooLarge] = imgSources(html, 'slot-music-cover')
    for (const [src, path] of [
      [notImage, '/page.jpg'],
      [tooLarge, '/huge.jpg'],
    ]) {
      for (let i = 0; i < 2; i++) {
        const res = await get(src)
        await res.arrayBuffer()
        assert.equal(res.status, 404, src)
      }
      assert.equal(host.hits.filter((h) => h === path).length, 1, path)
    }
  })

  it('never signs our own addresses, and signs with the service secret', () => {
    assert.equal(remoteImageUrl(t.ctx, `${t.ctx.config.publicUrl}/static/u1/x.png`), `${t.ctx.config.publicUrl}/static/u1/x.png`)
    const [, , , signature, id] = remoteImageUrl(t.ctx, 'https://img.example/a.jpg').split('/')
    assert.equal(verifiedRemoteUrl(t.ctx.secret, signature, id), 'https://img.example/a.jpg')
    assert.equal(verifiedRemoteUrl(Buffer.from('another secret'), signature, id), undefined)
  })
})
