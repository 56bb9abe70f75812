import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { configureMedia } from '../../src/media/media.ts'
import { MAX_URL_BYTES } from '../../src/media/uploads.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { solid } from '../media/images.ts'
import { loopbackNetwork } from '../media/loopback-network.ts'

/** The one upstream the tests may reach: 127.0.0.1, listed in UPLOAD_URL_ALLOW_HOSTS. */
async function imageServer(wide: Buffer): Promise<{ server: Server; port: number; hits: string[] }> {
  const hits: string[] = []
  const server = createServer((req, res) => {
    const url = req.url ?? '/'
    hits.push(url)
    const hop = /^\/hops\/(\d+)$/.exec(url)
    if (url === '/wide.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(wide)
    if (url === '/text.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end('plain text, not a picture')
    if (url === '/missing.png') return void res.writeHead(404).end()
    if (url === '/to-private') return void res.writeHead(302, { location: 'http://10.0.0.1/wide.png' }).end()
    if (url === '/to-metadata') return void res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
    if (url === '/to-unlisted-port') return void res.writeHead(307, { location: `http://127.0.0.1:${port + 1}/wide.png` }).end()
    if (hop) {
      const n = Number(hop[1])
      return void res.writeHead(302, { location: n > 1 ? `/hops/${n - 1}` : '/wide.png' }).end()
    }
    if (url === '/declared-huge') return void res.writeHead(200, { 'content-length': String(MAX_URL_BYTES + 1) }).end()
    if (url === '/streamed-huge') {
      // No Content-Length: the limit must be enforced while reading.
      res.writeHead(200, { 'content-type': 'image/png' })
      const chunk = Buffer.alloc(1024 * 1024)
      for (let i = 0; i < 11; i++) res.write(chunk)
      return void res.end()
    }
    if (url === '/stall') return void res.writeHead(200).write(wide.subarray(0, 100)) // never ends
    res.writeHead(404).end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as AddressInfo).port
  return { server, port, hits }
}

describe(`POST /files with a url (${STORE})`, () => {
  let t: TestApp
  let upstream: Awaited<ReturnType<typeof imageServer>>
  let net: ReturnType<typeof loopbackNetwork>
  let token: string
  let base: string

  before(async () => {
    upstream = await imageServer(await solid(1600, 900, 'png'))
    base = `http://127.0.0.1:${upstream.port}`
    t = await startApp({ UPLOAD_URL_ALLOW_HOSTS: `127.0.0.1:${upstream.port}` })
    net = loopbackNetwork({
      'loopback.test': ['127.0.0.1'],
      localhost: ['127.0.0.1', '::1'],
      'intranet.test': ['192.168.1.10'],
      'ula.test': ['fd12:3456::1'],
    })
    configureMedia(t.ctx, { resolve: net.resolve, connect: net.connect })
    token = (await makeAccount(t)).token
  })
  after(async () => {
    await t.close()
    upstream.server.closeAllConnections()
    await new Promise((r) => upstream.server.close(r))
  })

  const post = (url: string, headers: Record<string, string> = {}) => t.request('POST', '/v1/files', { token, body: { url }, headers })

  it('downloads an image from an allowed host, stores it and scales it to 800 px', async () => {
    const res = await post(`${base}/wide.png`)
    assert.equal(res.status, 201)
    assert.deepEqual([res.body.data.width, res.body.data.height], [800, 450])
    assert.match(res.body.data.path, /\.png$/)
  })

  const hostile = [
    'http://127.0.0.1/x.png',
    'http://127.1/x.png',
    'http://0.0.0.0/x.png',
    'http://10.0.0.1/x.png',
    'http://10.255.255.254/x.png',
    'http://172.16.0.1/x.png',
    'http://172.31.255.1/x.png',
    'http://192.168.1.1/x.png',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/x.png',
    'http://224.0.0.1/x.png',
    'http://255.255.255.255/x.png',
    'http://[::1]/x.png',
    'http://[::]/x.png',
    'http://[fc00::1]/x.png',
    'http://[fe80::1]/x.png',
    'http://[ff02::1]/x.png',
    'http://[::ffff:127.0.0.1]/x.png',
    'http://[::ffff:a9fe:a9fe]/x.png',
    'http://[::127.0.0.1]/x.png',
    'http://[64:ff9b::7f00:1]/x.png',
    'http://[2002:7f00:1::]/x.png',
    'http://2130706433/x.png',
    'http://0177.0.0.1/x.png',
    'http://0x7f.0.0.1/x.png',
    'http://0x7f000001/x.png',
    'http://loopback.test/x.png',
    'http://localhost/x.png',
    'http://intranet.test/x.png',
    'http://ula.test/x.png',
    'https://127.0.0.1/x.png',
    'http://example.test:8080/x.png',
    'https://example.test:8443/x.png',
    'http://127.0.0.1:22/x.png',
    'ftp://example.test/x.png',
    'file:///etc/passwd',
    'gopher://example.test/',
    'http://user:secret@example.test/x.png',
  ]

  it(`refuses ${hostile.length} hostile URLs with 422 without opening a connection`, async () => {
    for (const url of hostile) {
      const before = net.attempts.length
      const res = await post(url)
      assert.equal(res.status, 422, `${url} → ${res.status} ${res.text}`)
      assert.equal(res.body.code, 'validation_failed', url)
      // Refused by a rule, not by a failed lookup or connection.
      assert.match(res.body.errors.url[0], /private or reserved|default ports|only http and https|user name/i, url)
      assert.equal(net.attempts.length, before, `${url} opened a connection`)
    }
  })

  it('refuses a redirect from an allowed host to a private address, connecting only to the allowed host', async () => {
    for (const path of ['/to-private', '/to-metadata', '/to-unlisted-port']) {
      const before = net.attempts.length
      const res = await post(`${base}${path}`)
      assert.equal(res.status, 422, path)
      assert.match(res.body.errors.url[0], /private|port/, path)
      const made = net.attempts.slice(before)
      assert.deepEqual(
        made.map((a) => `${a.address}:${a.port}`),
        [`127.0.0.1:${upstream.port}`],
        path,
      )
    }
  })

  it('follows three redirects and refuses a fourth', async () => {
    const three = await post(`${base}/hops/3`)
    assert.equal(three.status, 201)
    const four = await post(`${base}/hops/4`)
    assert.equal(four.status, 422)
    assert.match(four.body.errors.url[0], /redirects more than 3/)
  })

  it('refuses a download over 10 MB, declared or streamed', async () => {
    for (const path of ['/declared-huge', '/streamed-huge']) {
      const res = await post(`${base}${path}`)
      assert.equal(res.status, 422, path)
      assert.match(res.body.errors.url[0], /larger than 10 MB/, path)
    }
  })

  it('refuses a download that does not finish in time', async () => {
    configureMedia(t.ctx, { urlTimeoutMs: 300 })
    try {
      const res = await post(`${base}/stall`)
      assert.equal(res.status, 422)
      assert.match(res.body.errors.url[0], /did not finish within/)
    } finally {
      configureMedia(t.ctx, { urlTimeoutMs: 10_000 })
    }
  })

  it('refuses bytes that are not an image, and error statuses', async () => {
    const text = await post(`${base}/text.png`)
    assert.equal(text.status, 422)
    assert.match(text.body.errors.url[0], /jpeg, png, webp or gif/)
    const missing = await post(`${base}/missing.png`)
    assert.equal(missing.status, 422)
    assert.match(missing.body.errors.url[0], /HTTP 404/)
  })

  it('checks a url under Precognition and stores nothing', async () => {
    const { token: own, user } = await makeAccount(t)
    const dry = await t.request('POST', '/v1/files', { token: own, body: { url: `${base}/wide.png` }, headers: { precognition: 'true' } })
    assert.equal(dry.status, 204)
    const refused = await t.request('POST', '/v1/files', { token: own, body: { url: 'http://10.0.0.1/x.png' }, headers: { precognition: 'true' } })
    assert.equal(refused.status, 422)
    const rows = await t.ctx.db.selectFrom('files').select('id').where('user_id', '=', user.id).execute()
    assert.equal(rows.length, 0)
  })

  it('refuses a url longer than 2048 characters or not a URL with 422', async () => {
    const long = await post(`${base}/${'a'.repeat(2050)}`)
    assert.equal(long.status, 422)
    const notUrl = await post('not a url')
    assert.equal(notUrl.status, 422)
    assert.ok(notUrl.body.errors.url)
  })
})
