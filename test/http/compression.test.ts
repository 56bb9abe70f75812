import assert from 'node:assert/strict'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import Fastify, { type FastifyInstance } from 'fastify'
import { installCompression, preferredEncoding } from '../../src/http/content-encoding.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { BROWSER_UA, buildDemoPage } from '../pages/page-fixtures.ts'

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  /** The bytes as they came over the wire (still encoded). */
  body: Buffer
}

/** A GET over real HTTP that leaves the body as sent, so the encoding itself is visible. */
function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
      .on('error', reject)
      .end()
  })
}

const decoded = (res: Raw) =>
  res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.body) : res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.body) : res.body

const browser = { 'user-agent': BROWSER_UA, accept: 'text/html,*/*;q=0.8' }

describe('preferredEncoding', () => {
  it('prefers brotli, falls back to gzip, honours q=0 and *', () => {
    assert.equal(preferredEncoding('gzip, deflate, br, zstd'), 'br')
    assert.equal(preferredEncoding('gzip'), 'gzip')
    assert.equal(preferredEncoding('br;q=0, gzip'), 'gzip')
    assert.equal(preferredEncoding('br;q=0.5, gzip;q=0.8'), 'gzip')
    assert.equal(preferredEncoding('*'), 'br')
    assert.equal(preferredEncoding('*;q=0, identity'), undefined)
    assert.equal(preferredEncoding('deflate'), undefined)
    assert.equal(preferredEncoding(undefined), undefined)
  })
})

describe(`compressed answers (${STORE})`, () => {
  let t: TestApp
  let token: string
  let profileId: number
  const login = 'squeezed.page'

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    token = account.token
    const profile = await makeProfile(t, account.user, login)
    profileId = profile.id
    await buildDemoPage(t, account.user, account.token, profile)
  })
  after(() => t.close())

  it('sends the public page in brotli, gzip or as is, each with its own validator, from the render and from the cache', async () => {
    const url = `${t.url}/${login}`
    t.ctx.events.emit('profile-changed', { profileId, logins: [login] })
    const plain = await get(url, browser)
    assert.equal(plain.status, 200)
    assert.equal(plain.headers['content-encoding'], undefined)
    assert.equal(plain.headers.vary, 'Accept, Accept-Encoding')
    const etags = new Set([plain.headers.etag])
    for (const encoding of ['br', 'gzip']) {
      // The second request of each is a cache hit answered before Fastify (no x-request-id).
      for (const hit of [false, true]) {
        if (!hit) t.ctx.events.emit('profile-changed', { profileId, logins: [login] })
        const res = await get(url, { ...browser, 'accept-encoding': `${encoding}, identity;q=0.5` })
        assert.equal(res.status, 200)
        assert.equal(res.headers['x-request-id'] === undefined, hit)
        assert.equal(res.headers['content-encoding'], encoding)
        assert.equal(res.headers.vary, 'Accept, Accept-Encoding')
        assert.equal(Number(res.headers['content-length']), res.body.length)
        assert.ok(res.body.length < plain.body.length / 3, `${encoding}: ${res.body.length} of ${plain.body.length}`)
        assert.deepEqual(decoded(res), plain.body)
        assert.match(String(res.headers.etag), new RegExp(`-${encoding}"$`))
        etags.add(res.headers.etag)
        const revalidated = await get(url, { ...browser, 'accept-encoding': encoding, 'if-none-match': String(res.headers.etag) })
        assert.equal(revalidated.status, 304)
        assert.equal(revalidated.headers.etag, res.headers.etag)
        // Another coding's validator does not match this representation.
        const other = await get(url, { ...browser, 'accept-encoding': encoding, 'if-none-match': String(plain.headers.etag) })
        assert.equal(other.status, 200)
      }
    }
    assert.equal(etags.size, 3)
  })

  it('compresses the markdown page, JSON answers and the API reference', async () => {
    const md = await get(`${t.url}/${login}`, { accept: 'text/markdown', 'accept-encoding': 'br' })
    assert.equal(md.headers['content-encoding'], 'br')
    assert.match(decoded(md).toString(), /^# /m)

    const json = await get(`${t.url}/v1/profiles/${profileId}?include=slots`, { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' })
    assert.equal(json.status, 200)
    assert.equal(json.headers['content-encoding'], 'gzip')
    assert.match(String(json.headers.vary), /accept-encoding/i)
    assert.equal(JSON.parse(decoded(json).toString()).data.login, login)

    const apiMarkdown = await get(`${t.url}/v1/profiles/${profileId}/markdown`, { authorization: `Bearer ${token}`, 'accept-encoding': 'br' })
    assert.equal(apiMarkdown.headers['content-encoding'], 'br')
    assert.ok(Number(apiMarkdown.headers['x-markdown-tokens']) > 0)

    const plainDocs = await get(`${t.url}/v1/docs`)
    assert.equal(plainDocs.headers['content-encoding'], undefined)
    for (const encoding of ['br', 'gzip']) {
      const docs = await get(`${t.url}/v1/docs`, { 'accept-encoding': encoding })
      assert.equal(docs.headers['content-encoding'], encoding)
      assert.match(String(docs.headers.vary), /accept-encoding/i)
      assert.deepEqual(decoded(docs), plainDocs.body)
    }
    assert.match(plainDocs.body.toString(), /Slotline API reference/)
  })

  it('leaves small answers and clients that accept no coding alone', async () => {
    const small = await get(`${t.url}/-/healthz`, { 'accept-encoding': 'br' })
    assert.equal(small.headers['content-encoding'], undefined)
    const none = await get(`${t.url}/v1/profiles/${profileId}?include=slots`, { authorization: `Bearer ${token}` })
    assert.equal(none.headers['content-encoding'], undefined)
    assert.equal(JSON.parse(none.body.toString()).data.login, login)
  })

  it('does not inflate gzip request bodies (they are refused, not decompressed)', async () => {
    const res = await fetch(`${t.url}/v1/profiles`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: new Uint8Array((await import('node:zlib')).gzipSync(JSON.stringify({ login: 'inflated.page' }))),
    })
    assert.notEqual(res.status, 201)
    assert.ok(res.status >= 400 && res.status < 500, String(res.status))
  })
})

describe(`/favicon.ico and /robots.txt (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('serves the service mark as a 32x32 icon, revalidated by ETag', async () => {
    const res = await get(`${t.url}/favicon.ico`)
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'image/x-icon')
    // ICONDIR: reserved 0, type 1 (icon), one image of 32x32 at 32 bits per pixel.
    assert.deepEqual([res.body.readUInt16LE(0), res.body.readUInt16LE(2), res.body.readUInt16LE(4)], [0, 1, 1])
    assert.deepEqual([res.body[6], res.body[7], res.body.readUInt16LE(12)], [32, 32, 32])
    assert.equal(res.body.readUInt32LE(14) + res.body.readUInt32LE(18), res.body.length)
    const again = await get(`${t.url}/favicon.ico`, { 'if-none-match': String(res.headers.etag) })
    assert.equal(again.status, 304)
  })

  it('keeps crawlers on public pages, off the API, operations and click redirects', async () => {
    const res = await get(`${t.url}/robots.txt`)
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    const text = res.body.toString()
    for (const path of ['/v1/', '/-/', '/mcp', '/oauth/', '/settings']) assert.match(text, new RegExp(`^Disallow: ${path}$`, 'm'))
    assert.match(text, /^User-agent: \*$/m)
    assert.match(text, /^Allow: \/$/m)
  })

  it('names the avatar as the icon of a public page that has one', async () => {
    const account = await makeAccount(t)
    const profile = await makeProfile(t, account.user, 'icon.page')
    const bare = await get(`${t.url}/icon.page`, browser)
    assert.doesNotMatch(bare.body.toString(), /rel="icon"/)
    await buildDemoPage(t, account.user, account.token, profile)
    t.ctx.events.emit('profile-changed', { profileId: profile.id, logins: ['icon.page'] })
    const html = (await get(`${t.url}/icon.page`, browser)).body.toString()
    // Each a square WebP crop of the avatar's upload, sized for its place.
    const stem = /<img class="avatar" src="([^"]+)\.s\d+\.webp"/.exec(html)?.[1]
    assert.ok(stem, 'the avatar is a square crop')
    assert.ok(html.includes(`<link rel="icon" href="${stem}.s64.webp" type="image/webp">`))
    assert.ok(html.includes(`<link rel="apple-touch-icon" href="${stem}.s180.webp">`))
  })
})

describe('the compression hook on its own routes', () => {
  let app: FastifyInstance
  let url: string
  const big = JSON.stringify({ items: Array.from({ length: 4000 }, (_, i) => ({ i, text: `item ${i} ü` })) })
  before(async () => {
    app = Fastify()
    installCompression(app)
    app.get('/big', (_req, reply) => reply.type('application/json').send(big))
    app.get('/medium', (_req, reply) => reply.type('text/html').send('<p>héllo</p>'.repeat(200)))
    app.get('/stream', (_req, reply) => reply.type('text/csv').send(Readable.from(Array.from({ length: 50 }, (_, i) => `row,${i}\n`.repeat(40)))))
    app.get('/varied', (_req, reply) => reply.header('vary', 'origin').type('text/plain').send('x'.repeat(2000)))
    app.get('/coded', (_req, reply) =>
      reply
        .header('content-encoding', 'gzip')
        .type('text/plain')
        .send(gzipSync('y'.repeat(3000))),
    )
    app.get('/partial', (_req, reply) => reply.code(206).header('content-range', 'bytes 0-1999/4000').type('text/plain').send('z'.repeat(2000)))
    app.get('/image', (_req, reply) => reply.type('image/png').send(Buffer.alloc(5000)))
    app.get('/events', (_req, reply) => reply.type('text/event-stream').send('data: x\n\n'.repeat(300)))
    await app.listen({ host: '127.0.0.1', port: 0 })
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  })
  after(() => app.close())

  it('compresses large bodies off the event loop and medium ones at once, each with its length', async () => {
    for (const [path, body] of [
      ['/big', big],
      ['/medium', '<p>héllo</p>'.repeat(200)],
    ]) {
      for (const encoding of ['br', 'gzip']) {
        const res = await get(`${url}${path}`, { 'accept-encoding': encoding })
        assert.equal(res.headers['content-encoding'], encoding, path)
        assert.equal(Number(res.headers['content-length']), res.body.length, path)
        assert.equal(res.headers.vary, 'accept-encoding')
        assert.equal(decoded(res).toString(), body)
      }
    }
  })

  it('compresses a streamed body as it goes', async () => {
    const res = await get(`${url}/stream`, { 'accept-encoding': 'br' })
    assert.equal(res.headers['content-encoding'], 'br')
    assert.equal(res.headers['content-length'], undefined)
    assert.equal(decoded(res).toString(), Array.from({ length: 50 }, (_, i) => `row,${i}\n`.repeat(40)).join(''))
  })

  it('adds accept-encoding to a Vary the route set', async () => {
    const res = await get(`${url}/varied`, { 'accept-encoding': 'gzip' })
    assert.equal(res.headers.vary, 'origin, accept-encoding')
    assert.equal(decoded(res).toString(), 'x'.repeat(2000))
  })

  it('leaves coded, partial, binary and event-stream answers as they are', async () => {
    const coded = await get(`${url}/coded`, { 'accept-encoding': 'br' })
    assert.equal(coded.headers['content-encoding'], 'gzip')
    assert.equal(gunzipSync(coded.body).toString(), 'y'.repeat(3000))
    for (const path of ['/partial', '/image', '/events']) {
      const res = await get(`${url}${path}`, { 'accept-encoding': 'br, gzip' })
      assert.equal(res.headers['content-encoding'], undefined, path)
      assert.equal(res.headers.vary, undefined, path)
    }
  })
})
