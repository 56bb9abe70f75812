import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { configureMedia } from '../../src/media/media.ts'
import { uploadUrlSigner } from '../../src/media/upload-grant-service.ts'
import { MAX_UPLOAD_BYTES } from '../../src/media/uploads.ts'
import { filesRepository } from '../../src/store/files.ts'
import { makeAccount, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { solid } from '../media/images.ts'

describe(`POST /files/upload-url (${STORE})`, () => {
  let t: TestApp
  let token: string
  let userId: number
  let png: Buffer

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    token = account.token
    userId = account.user.id
    png = await solid(1600, 900, 'png')
  })
  after(() => t.close())

  const grant = async () => {
    const res = await t.request('POST', '/v1/files/upload-url', { token })
    assert.equal(res.status, 200)
    return res.body.data as { upload_url: string; method: string; max_bytes: number; expires_at: string }
  }
  const put = (url: string, body: Buffer | string) =>
    fetch(url, { method: 'PUT', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': 'image/png' } })
  const postForm = (url: string, data: Buffer) => {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'photo.png')
    return fetch(url, { method: 'POST', body: form })
  }
  const countGrants = async () => (await t.ctx.db.selectFrom('upload_grants').select('id').execute()).length

  it('refuses a request without a token with 401', async () => {
    assert.equal((await t.request('POST', '/v1/files/upload-url')).status, 401)
  })

  it('refuses a read-only token with 403', async () => {
    const reader = await makeToken(t, await makeUser(t), ['profile:read'])
    assert.equal((await t.request('POST', '/v1/files/upload-url', { token: reader })).status, 403)
  })

  it('answers a signed URL with method, size limit and expiry, in snake_case', async () => {
    const before = Date.now()
    const data = await grant()
    assert.deepEqual(Object.keys(data).sort(), ['expires_at', 'max_bytes', 'method', 'upload_url'])
    assert.equal(data.method, 'PUT')
    assert.equal(data.max_bytes, MAX_UPLOAD_BYTES)
    assert.ok(data.upload_url.startsWith(`${t.url}/-/upload/`))
    // The server reads its clock during the request, so expiry is 15 minutes after a moment
    // between `before` and now.
    const expires = Date.parse(data.expires_at)
    assert.ok(
      expires >= before + 15 * 60_000 - 1000 && expires <= Date.now() + 15 * 60_000,
      `expires at ${data.expires_at}, asked at ${new Date(before).toISOString()}`,
    )
  })

  it('takes one PUT of raw bytes over HTTP, answers the stored file and refuses a second use', async () => {
    const { upload_url } = await grant()
    const first = await put(upload_url, png)
    assert.equal(first.status, 201)
    const { data } = (await first.json()) as { data: { path: string; src: string; width: number; height: number } }
    assert.deepEqual([data.width, data.height], [800, 450])
    assert.equal((await filesRepository.findByPath(t.ctx.db, data.path))?.userId, userId)
    const served = await fetch(data.src)
    assert.equal(served.status, 200)
    assert.equal(served.headers.get('content-type'), 'image/png')
    await served.arrayBuffer()
    const again = await put(upload_url, png)
    assert.equal(again.status, 403)
    const body = (await again.json()) as { code: string; message: string }
    assert.equal(body.code, 'forbidden')
    assert.match(body.message, /already been used/)
  })

  it('takes one POST of a multipart file over HTTP and refuses a second use', async () => {
    const { upload_url } = await grant()
    const first = await postForm(upload_url, png)
    assert.equal(first.status, 201)
    const { data } = (await first.json()) as { data: { path: string } }
    assert.match(data.path, new RegExp(`^u${userId}/`))
    assert.equal((await postForm(upload_url, png)).status, 403)
  })

  it('lets exactly one of two simultaneous uploads to one URL through', async () => {
    const { upload_url } = await grant()
    const statuses = (await Promise.all([put(upload_url, png), put(upload_url, png)])).map((r) => r.status).sort()
    assert.deepEqual(statuses, [201, 403])
  })

  it('refuses an expired URL', async () => {
    const { upload_url } = await grant()
    configureMedia(t.ctx, { now: () => Date.now() + 16 * 60_000 })
    try {
      const res = await put(upload_url, png)
      assert.equal(res.status, 403)
      assert.match(((await res.json()) as { message: string }).message, /expired/)
    } finally {
      configureMedia(t.ctx, { now: Date.now })
    }
  })

  it('refuses a URL whose id, expiry or signature was changed', async () => {
    const { upload_url } = await grant()
    const [prefix, token] = [upload_url.slice(0, upload_url.lastIndexOf('/') + 1), upload_url.slice(upload_url.lastIndexOf('/') + 1)]
    const [id, exp, sig] = token.split('.')
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1)
    // `0${exp}` signs the same grant and expiry: only the canonical spelling is accepted.
    for (const forged of [
      `${flip(id)}.${exp}.${sig}`,
      `${id}.${Number(exp) + 3600}.${sig}`,
      `${id}.${exp}.${flip(sig)}`,
      `${id}.${exp}`,
      'x',
      `${id}.0${exp}.${sig}`,
    ]) {
      const res = await put(prefix + forged, png)
      assert.equal(res.status, 403, forged)
      assert.equal(((await res.json()) as { code: string }).code, 'forbidden')
    }
    // The genuine URL was not spent by the forgeries.
    assert.equal((await put(upload_url, png)).status, 201)
  })

  it('refuses a token signed with another secret', async () => {
    const other = uploadUrlSigner(Buffer.from('another secret'), { now: Date.now, lifetimeMs: 60_000 }).issue()
    const res = await put(`${t.url}/-/upload/${other.token}`, png)
    assert.equal(res.status, 403)
  })

  it('gives the URL back when the upload is refused, so a corrected retry works', async () => {
    const { upload_url } = await grant()
    const bad = await put(upload_url, 'not an image at all')
    assert.equal(bad.status, 422)
    assert.ok(((await bad.json()) as { errors: Record<string, string[]> }).errors.file)
    assert.equal((await put(upload_url, png)).status, 201)
  })

  it('answers a declared body over 50 MB with 413 before reading it', async () => {
    const { upload_url } = await grant()
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(upload_url, { method: 'PUT', headers: { 'content-length': String(MAX_UPLOAD_BYTES + 1) } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
        req.destroy()
      })
      req.on('error', reject)
      req.flushHeaders()
    })
    assert.equal(status, 413)
  })

  it('records nothing under Precognition', async () => {
    const before = await countGrants()
    const res = await t.request('POST', '/v1/files/upload-url', { token, headers: { precognition: 'true' } })
    assert.equal(res.status, 204)
    assert.equal(await countGrants(), before)
  })

  it('answers a repeated Idempotency-Key with the same URL', async () => {
    const headers = { 'idempotency-key': 'grant-once' }
    const first = await t.request('POST', '/v1/files/upload-url', { token, headers })
    const second = await t.request('POST', '/v1/files/upload-url', { token, headers })
    assert.equal(second.headers['idempotent-replayed'], 'true')
    assert.equal(second.body.data.upload_url, first.body.data.upload_url)
  })
})
