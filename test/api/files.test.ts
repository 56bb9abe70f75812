import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { configureMedia } from '../../src/media/media.ts'
import { MAX_UPLOAD_BYTES } from '../../src/media/uploads.ts'
import { filesRepository } from '../../src/store/files.ts'
import { makeAccount, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { animatedGif, hasGpsTag, jpegWithOrientationAndGps, pixelBomb, solid } from '../media/images.ts'
import { startLocalS3 } from '../media/local-s3.ts'
import { loopbackNetwork } from '../media/loopback-network.ts'

/** A multipart body built by hand, so inject can send exactly these bytes. */
export function multipart(parts: Array<{ name: string; filename?: string; type?: string; data: Buffer | string }>) {
  const boundary = `----slotline${Math.random().toString(16).slice(2)}`
  const chunks: Buffer[] = []
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`))
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data))
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

/** POST /v1/files over real HTTP with a FormData body, as a client would send it. */
async function upload(t: TestApp, token: string, data: Buffer, filename: string, type: string, headers: Record<string, string> = {}) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(data)], { type }), filename)
  const res = await fetch(`${t.url}/v1/files`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}`, ...headers } })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}

async function fetchStored(src: string) {
  const res = await fetch(src)
  return { res, bytes: Buffer.from(await res.arrayBuffer()) }
}

const images: Record<string, Buffer> = {}
before(async () => {
  images.wide = await solid(1600, 900, 'png')
  images.square = await solid(400, 400, 'png')
  images.exif = await jpegWithOrientationAndGps()
  images.webp = await solid(1000, 500, 'webp')
  images.gif = await animatedGif()
  images.bomb = await pixelBomb()
  images.jpeg = await solid(640, 480, 'jpeg')
})

for (const driver of ['disk', 's3'] as const) {
  describe(`POST /files with images (${STORE}, ${driver} storage)`, () => {
    let t: TestApp
    let s3: Awaited<ReturnType<typeof startLocalS3>> | undefined
    let token: string
    let userId: number
    before(async () => {
      s3 = driver === 's3' ? await startLocalS3() : undefined
      t = await startApp(s3?.env ?? {})
      const account = await makeAccount(t)
      token = account.token
      userId = account.user.id
    })
    after(async () => {
      await t.close()
      await s3?.close()
    })

    it('stores a png and serves it at src with its type, nosniff and immutable caching', async () => {
      const res = await upload(t, token, images.square, 'square.png', 'image/png')
      assert.equal(res.status, 201)
      assert.deepEqual(Object.keys(res.body.data).sort(), ['height', 'path', 'src', 'width'])
      assert.match(res.body.data.path, new RegExp(`^u${userId}/[A-Za-z0-9_-]+\\.png$`))
      assert.equal(res.body.data.src, `${t.url}/static/${res.body.data.path}`)
      const { res: served, bytes } = await fetchStored(res.body.data.src)
      assert.equal(served.status, 200)
      assert.equal(served.headers.get('content-type'), 'image/png')
      assert.equal(served.headers.get('x-content-type-options'), 'nosniff')
      assert.match(String(served.headers.get('cache-control')), /max-age=31536000.*immutable/)
      assert.equal((await sharp(bytes).metadata()).format, 'png')
    })

    it('downscales a 1600×900 image to 800×450', async () => {
      const res = await upload(t, token, images.wide, 'wide.png', 'image/png')
      assert.equal(res.status, 201)
      assert.equal(res.body.data.width, 800)
      assert.equal(res.body.data.height, 450)
      const meta = await sharp((await fetchStored(res.body.data.src)).bytes).metadata()
      assert.deepEqual([meta.width, meta.height], [800, 450])
    })

    it('keeps a 400×400 image at 400×400', async () => {
      const res = await upload(t, token, images.square, 'square.png', 'image/png')
      assert.equal(res.status, 201)
      assert.deepEqual([res.body.data.width, res.body.data.height], [400, 400])
    })

    it('turns a jpeg by its EXIF orientation and drops its GPS position', async () => {
      const input = await sharp(images.exif).metadata()
      assert.equal(input.orientation, 6)
      assert.ok(hasGpsTag(input.exif), 'the test image carries GPS')
      const res = await upload(t, token, images.exif, 'photo.jpg', 'image/jpeg')
      assert.equal(res.status, 201)
      assert.deepEqual([res.body.data.width, res.body.data.height], [200, 300])
      const { res: served, bytes } = await fetchStored(res.body.data.src)
      assert.equal(served.headers.get('content-type'), 'image/jpeg')
      const stored = await sharp(bytes).metadata()
      assert.deepEqual([stored.width, stored.height], [200, 300])
      assert.equal(stored.exif, undefined)
      assert.ok(!hasGpsTag(stored.exif))
      assert.ok(stored.orientation === undefined || stored.orientation === 1)
      // Rotated clockwise, the red left half of the original is now on top.
      const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true })
      const top = data.subarray(0, 3)
      const bottom = data.subarray(data.length - 3)
      assert.ok(top[0] > 200 && top[2] < 60, `top pixel is red (${[...top]})`)
      assert.ok(bottom[2] > 200 && bottom[0] < 60, `bottom pixel is blue (${[...bottom]})`)
    })

    it('stores a webp as webp, downscaled', async () => {
      const res = await upload(t, token, images.webp, 'banner.webp', 'image/webp')
      assert.equal(res.status, 201)
      assert.match(res.body.data.path, /\.webp$/)
      assert.deepEqual([res.body.data.width, res.body.data.height], [800, 400])
      const { res: served } = await fetchStored(res.body.data.src)
      assert.equal(served.headers.get('content-type'), 'image/webp')
    })

    it('keeps an animated gif byte for byte, every frame included', async () => {
      const res = await upload(t, token, images.gif, 'anim.gif', 'image/gif')
      assert.equal(res.status, 201)
      assert.deepEqual([res.body.data.width, res.body.data.height], [32, 32])
      const { res: served, bytes } = await fetchStored(res.body.data.src)
      assert.equal(served.headers.get('content-type'), 'image/gif')
      assert.ok(bytes.equals(images.gif))
      assert.equal((await sharp(bytes, { animated: true }).metadata()).pages, 3)
    })

    it('records the file as the uploader’s with its type, size and dimensions', async () => {
      const res = await upload(t, token, images.jpeg, 'photo.jpg', 'image/jpeg')
      const row = await filesRepository.findByPath(t.ctx.db, res.body.data.path)
      assert.ok(row)
      assert.equal(row.userId, userId)
      assert.equal(row.mime, 'image/jpeg')
      assert.deepEqual([row.width, row.height], [640, 480])
      const { bytes } = await fetchStored(res.body.data.src)
      assert.equal(row.size, bytes.length)
    })

    it('refuses a decompression bomb with 422 naming file', async () => {
      const res = await upload(t, token, images.bomb, 'bomb.png', 'image/png')
      assert.equal(res.status, 422)
      assert.equal(res.body.code, 'validation_failed')
      assert.match(res.body.errors.file[0], /megapixels/)
    })

    it('refuses truncated image data with 422', async () => {
      for (const [name, data] of [
        ['cut.jpg', images.jpeg.subarray(0, Math.floor(images.jpeg.length / 2))],
        ['cut.png', images.wide.subarray(0, Math.floor(images.wide.length / 2))],
        ['cut.gif', images.gif.subarray(0, images.gif.length - 10)],
      ] as const) {
        const res = await upload(t, token, data, name, 'image/png')
        assert.equal(res.status, 422, name)
        assert.ok(res.body.errors.file, name)
      }
    })

    it('refuses a text file renamed .png with 422', async () => {
      const res = await upload(t, token, Buffer.from('just some text, not an image\n'.repeat(20)), 'notes.png', 'image/png')
      assert.equal(res.status, 422)
      assert.match(res.body.errors.file[0], /jpeg, png, webp or gif/)
    })
  })

  describe(`GET /static/{path} (${STORE}, ${driver} storage)`, () => {
    let t: TestApp
    let s3: Awaited<ReturnType<typeof startLocalS3>> | undefined
    let token: string
    before(async () => {
      s3 = driver === 's3' ? await startLocalS3() : undefined
      t = await startApp(s3?.env ?? {})
      token = (await makeAccount(t)).token
    })
    after(async () => {
      await t.close()
      await s3?.close()
    })

    it('answers 304 to a matching If-None-Match, and 404 for a path that holds nothing', async () => {
      const { body } = await upload(t, token, images.square, 'a.png', 'image/png')
      const first = await fetch(body.data.src)
      await first.arrayBuffer()
      const etag = first.headers.get('etag')
      assert.ok(etag)
      const again = await fetch(body.data.src, { headers: { 'if-none-match': etag } })
      assert.equal(again.status, 304)
      const missing = await t.request('GET', `/static/${body.data.path.replace(/\.png$/, '.gif')}`)
      assert.equal(missing.status, 404)
      assert.equal(missing.body.code, 'not_found')
    })

    it('answers 404 to paths that are not storage keys, traversal included', async () => {
      for (const path of ['/static/../secret.key', '/static/u1/..%2F..%2Fsecret.key', '/static/tmp/x.png', '/static/u1/short.png']) {
        const res = await t.request('GET', path)
        assert.equal(res.status, 404, path)
      }
    })
  })
}

describe(`POST /files (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
    // These tests name outside URLs only to be refused; should that ever change, nothing leaves 127.0.0.1.
    const { resolve, connect } = loopbackNetwork()
    configureMedia(t.ctx, { resolve, connect })
  })
  after(() => t.close())

  const countFiles = async (userId: number) =>
    Number(
      (
        await t.ctx.db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('refuses a request without a token with 401', async () => {
    const res = await t.request('POST', '/v1/files', multipart([{ name: 'file', filename: 'a.png', type: 'image/png', data: images.square }]))
    assert.equal(res.status, 401)
  })

  it('refuses a read-only token with 403', async () => {
    const user = await makeUser(t)
    const token = await makeToken(t, user, ['profile:read'])
    const res = await t.request('POST', '/v1/files', { token, ...multipart([{ name: 'file', filename: 'a.png', data: images.square }]) })
    assert.equal(res.status, 403)
  })

  it('refuses a body with neither a file nor a url with 422', async () => {
    const { token } = await makeAccount(t)
    const json = await t.request('POST', '/v1/files', { token, body: {} })
    assert.equal(json.status, 422)
    assert.ok(json.body.errors.file)
    const empty = await t.request('POST', '/v1/files', { token })
    assert.equal(empty.status, 422)
    const form = await t.request('POST', '/v1/files', { token, ...multipart([]) })
    assert.equal(form.status, 422)
  })

  it('refuses a file and a url together with 422', async () => {
    const { token } = await makeAccount(t)
    const res = await t.request('POST', '/v1/files', {
      token,
      ...multipart([
        { name: 'file', filename: 'a.png', type: 'image/png', data: images.square },
        { name: 'url', data: 'https://example.com/a.png' },
      ]),
    })
    assert.equal(res.status, 422)
    assert.match(res.body.errors.url[0], /not both/)
  })

  it('refuses unknown parts and JSON fields with 422 naming them', async () => {
    const { token } = await makeAccount(t)
    const form = await t.request('POST', '/v1/files', {
      token,
      ...multipart([
        { name: 'file', filename: 'a.png', data: images.square },
        { name: 'caption', data: 'hello' },
      ]),
    })
    assert.equal(form.status, 422)
    assert.ok(form.body.errors.caption)
    const json = await t.request('POST', '/v1/files', { token, body: { url: 'https://example.com/a.png', file: 'x' } })
    assert.equal(json.status, 422)
    assert.ok(json.body.errors.file)
  })

  it('answers a file over 50 MB with a 413 envelope', async () => {
    const { token, user } = await makeAccount(t)
    const res = await t.request('POST', '/v1/files', {
      token,
      ...multipart([{ name: 'file', filename: 'big.png', type: 'image/png', data: Buffer.alloc(MAX_UPLOAD_BYTES + 1) }]),
    })
    assert.equal(res.status, 413)
    assert.equal(res.body.code, 'payload_too_large')
    assert.equal(await countFiles(user.id), 0)
  })

  it('checks an upload under Precognition and stores nothing', async () => {
    const { token, user } = await makeAccount(t)
    const body = multipart([{ name: 'file', filename: 'a.png', data: images.square }])
    const dry = await t.request('POST', '/v1/files', { token, payload: body.payload, headers: { ...body.headers, precognition: 'true' } })
    assert.equal(dry.status, 204)
    assert.equal(dry.headers['precognition-success'], 'true')
    const bad = multipart([{ name: 'file', filename: 'a.png', data: 'not an image' }])
    const failed = await t.request('POST', '/v1/files', { token, payload: bad.payload, headers: { ...bad.headers, precognition: 'true' } })
    assert.equal(failed.status, 422)
    assert.equal(await countFiles(user.id), 0)
  })

  it('answers a repeated Idempotency-Key with the first response and stores one file', async () => {
    const { token, user } = await makeAccount(t)
    const body = multipart([{ name: 'file', filename: 'a.png', data: images.square }])
    const headers = { ...body.headers, 'idempotency-key': 'upload-once' }
    const first = await t.request('POST', '/v1/files', { token, payload: body.payload, headers })
    const second = await t.request('POST', '/v1/files', { token, payload: body.payload, headers })
    assert.equal(first.status, 201)
    assert.equal(second.status, 201)
    assert.equal(second.headers['idempotent-replayed'], 'true')
    assert.equal(second.body.data.path, first.body.data.path)
    assert.equal(await countFiles(user.id), 1)
  })

  it('leaves other endpoints answering multipart bodies with 415', async () => {
    const { token } = await makeAccount(t)
    const res = await t.request('POST', '/v1/profiles', { token, ...multipart([{ name: 'login', data: 'abcdef' }]) })
    assert.equal(res.status, 415)
    assert.equal(res.body.code, 'unsupported_media_type')
    assert.match(res.body.message, /Send application\/json/)
    // A method the path does not have is that, whatever the body.
    const other = await t.request('POST', '/v1/me', { token, ...multipart([{ name: 'login', data: 'abcdef' }]) })
    assert.equal(other.status, 405)
    assert.equal(other.headers.allow, 'GET, HEAD')
  })
})
