import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { connect } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { uploadGrants } from '../../src/media/upload-grant-service.ts'
import { tokensRepository } from '../../src/store/tokens.ts'
import { makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

const MB = 1024 * 1024
const run = promisify(execFile)

interface Upload {
  method: 'POST' | 'PUT'
  token?: string
  /** multipart: one part "file" of `size` bytes, after `fields` small fields; raw: `size` bytes of `type`. */
  body: { kind: 'multipart'; size: number; fields?: number } | { kind: 'raw'; size: number; type: string }
  /** Sent as a stream of unknown length (chunked), as fetch sends a ReadableStream. */
  chunked?: boolean
}

/**
 * What Node's fetch makes of an upload, run in a process of its own: in this one, the server and
 * the client would take turns on one event loop and the client would always read the answer
 * before the server closed the connection, which is not what happens between two machines.
 */
async function fetchElsewhere(url: string, upload: Upload): Promise<{ status: number; json: { code: string; message: string } } | { error: string }> {
  const script = `
    const [url, upload] = JSON.parse(process.argv[1])
    const headers = {}
    if (upload.token) headers.authorization = 'Bearer ' + upload.token
    let bytes
    if (upload.body.kind === 'multipart') {
      const b = 'slotline-test-boundary'
      let head = ''
      for (let i = 0; i < (upload.body.fields ?? 0); i++) head += '--' + b + '\\r\\nContent-Disposition: form-data; name="f' + i + '"\\r\\n\\r\\nx\\r\\n'
      head += '--' + b + '\\r\\nContent-Disposition: form-data; name="file"; filename="a.png"\\r\\nContent-Type: image/png\\r\\n\\r\\n'
      bytes = Buffer.concat([Buffer.from(head), Buffer.alloc(upload.body.size, 0x61), Buffer.from('\\r\\n--' + b + '--\\r\\n')])
      headers['content-type'] = 'multipart/form-data; boundary=' + b
    } else {
      bytes = Buffer.alloc(upload.body.size, 0x61)
      headers['content-type'] = upload.body.type
    }
    const body = upload.chunked
      ? new ReadableStream({ start(c) { for (let i = 0; i < bytes.length; i += 65536) c.enqueue(bytes.subarray(i, i + 65536)); c.close() } })
      : bytes
    fetch(url, { method: upload.method, headers, body, duplex: 'half' })
      .then(async (res) => console.log(JSON.stringify({ status: res.status, json: await res.json() })))
      .catch((err) => console.log(JSON.stringify({ error: String(err.cause?.code ?? err.cause ?? err) })))
  `
  const { stdout } = await run(process.execPath, ['-e', script, JSON.stringify([url, upload])], { maxBuffer: 1024 * 1024 })
  return JSON.parse(stdout)
}

const assertAnswer = (got: Awaited<ReturnType<typeof fetchElsewhere>>, status: number, code: string, message: RegExp) => {
  assert.ok('status' in got, `fetch failed with ${'error' in got ? got.error : ''} instead of reading the answer`)
  assert.equal(got.status, status)
  assert.equal(got.json.code, code)
  assert.match(got.json.message, message)
}

describe(`Refused uploads reach Node's fetch as answers, not socket errors (${STORE})`, () => {
  let t: TestApp
  const tokens: Record<'invalid' | 'revoked' | 'read-only' | 'valid', string> = { invalid: `slp_${'A'.repeat(40)}`, revoked: '', 'read-only': '', valid: '' }
  let userId: number
  before(async () => {
    t = await startApp()
    const user = await makeUser(t)
    userId = user.id
    tokens.revoked = await makeToken(t, user)
    const [revoked] = await tokensRepository.listByUser(t.ctx.db, user.id)
    await tokensRepository.revoke(t.ctx.db, user.id, revoked.id)
    tokens['read-only'] = await makeToken(t, user, ['profile:read'])
    tokens.valid = await makeToken(t, user)
  })
  after(() => t.close())

  for (const size of [1 * MB, 10 * MB]) {
    for (const [kind, status, code, message] of [
      ['invalid', 401, 'unauthenticated', /invalid, expired or has been revoked/],
      ['revoked', 401, 'unauthenticated', /invalid, expired or has been revoked/],
      ['read-only', 403, 'forbidden', /lacks the profile:write ability/],
    ] as const) {
      it(`answers ${status} ${code} to a ${size / MB} MB POST /v1/files with a ${kind} token`, async () => {
        const got = await fetchElsewhere(`${t.url}/v1/files`, { method: 'POST', token: tokens[kind], body: { kind: 'multipart', size } })
        assertAnswer(got, status, code, message)
      })
    }

    it(`answers 401 to a ${size / MB} MB POST /v1/files of unknown length (chunked) with an invalid token`, async () => {
      const got = await fetchElsewhere(`${t.url}/v1/files`, { method: 'POST', token: tokens.invalid, body: { kind: 'multipart', size }, chunked: true })
      assertAnswer(got, 401, 'unauthenticated', /invalid, expired or has been revoked/)
    })

    it(`answers 413 to a ${size / MB} MB POST /v1/files with too many parts, refused before the file is read`, async () => {
      const got = await fetchElsewhere(`${t.url}/v1/files`, { method: 'POST', token: tokens.valid, body: { kind: 'multipart', size, fields: 13 } })
      assertAnswer(got, 413, 'payload_too_large', /Too many parts/)
    })

    it(`answers 415 to a ${size / MB} MB POST /v1/files of a type it does not take`, async () => {
      const got = await fetchElsewhere(`${t.url}/v1/files`, { method: 'POST', token: tokens.valid, body: { kind: 'raw', size, type: 'text/plain' } })
      assert.ok('status' in got, `fetch failed with ${'error' in got ? got.error : ''}`)
      assert.equal(got.status, 415)
      assert.equal(got.json.code, 'unsupported_media_type')
    })

    it(`answers 403 to a ${size / MB} MB PUT to an upload URL already used`, async () => {
      const grant = await uploadGrants.issue(t.ctx, t.ctx.db, userId)
      await uploadGrants.redeem(t.ctx, new URL(grant.upload_url).pathname.split('/').pop()!)
      const got = await fetchElsewhere(grant.upload_url, { method: 'PUT', body: { kind: 'raw', size, type: 'image/png' } })
      assertAnswer(got, 403, 'forbidden', /already been used/)
    })
  }

  it('answers 413 to an upload URL PUT announced larger than an upload may be, still read within the bound', async () => {
    const grant = await uploadGrants.issue(t.ctx, t.ctx.db, userId)
    const got = await fetchElsewhere(grant.upload_url, { method: 'PUT', body: { kind: 'raw', size: 51 * MB, type: 'image/png' } })
    assertAnswer(got, 413, 'payload_too_large', /larger than 50 MB/)
  })

  it('reads the rest of a refused body and keeps the connection: the next request on it is answered', async () => {
    const { port } = new URL(t.url)
    const socket = connect({ host: '127.0.0.1', port: Number(port) })
    let received = ''
    let closed = false
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => (received += chunk))
    socket.on('error', () => {})
    socket.on('close', () => (closed = true))
    const until = async (done: () => boolean) => {
      while (!done() && !closed) await new Promise((r) => setTimeout(r, 10))
    }
    const length = 2 * MB
    const first = Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n')
    socket.write(
      `POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tokens.invalid}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${length}\r\n\r\n`,
    )
    socket.write(first)
    await until(() => /\r\n\r\n\{.*\}$/s.test(received))
    assert.match(received, /^HTTP\/1\.1 401/)
    assert.doesNotMatch(received.toLowerCase(), /\r\nconnection: close\r\n/)
    // The rest of the body, then a second request on the same connection.
    socket.write(Buffer.alloc(length - first.length, 0x61))
    socket.write('GET /-/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await until(() => (received.match(/HTTP\/1\.1 /g) ?? []).length === 2 && received.trimEnd().endsWith('}'))
    const closedByServer = closed
    socket.destroy()
    assert.equal(closedByServer, false, `the server closed the connection after: ${received.slice(0, 200)}`)
    assert.match(received.slice(received.lastIndexOf('HTTP/1.1 ')), /^HTTP\/1\.1 200/)
  })

  it('does not read a refused body announced larger than the bound: the answer, then the connection closes', async () => {
    const { port } = new URL(t.url)
    const answer = await new Promise<string>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port) })
      let received = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk) => (received += chunk))
      socket.on('error', () => {})
      socket.on('close', () => resolve(received))
      socket.write(
        `POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tokens.invalid}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${t.ctx.config.deadlines.refusedBodyBytes + 1}\r\n\r\n--x`,
      )
    })
    assert.match(answer, /^HTTP\/1\.1 401/)
    assert.match(answer.toLowerCase(), /\r\nconnection: close\r\n/)
  })

  it('cuts a refused body of unknown length once it grows past the bound', async () => {
    const configured = t.ctx.config.deadlines
    t.ctx.config.deadlines = { ...configured, refusedBodyBytes: 1 * MB }
    try {
      const { port } = new URL(t.url)
      const result = await new Promise<{ answer: string; sent: number }>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: Number(port) })
        let received = ''
        let sent = 0
        let open = true
        socket.setEncoding('utf8')
        socket.on('data', (chunk) => (received += chunk))
        socket.on('error', () => {})
        socket.on('close', () => {
          open = false
          resolve({ answer: received, sent })
        })
        socket.write(
          `POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tokens.invalid}\r\nContent-Type: multipart/form-data; boundary=x\r\nTransfer-Encoding: chunked\r\n\r\n`,
        )
        const chunk = Buffer.alloc(64 * 1024, 0x61)
        const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
        // Sends until the server hangs up; 20 MB would be twenty times the bound.
        const pump = () => {
          while (open && sent < 20 * MB) {
            sent += chunk.length
            if (!socket.write(framed)) return void socket.once('drain', pump)
          }
          if (open) socket.end()
        }
        pump()
      })
      assert.match(result.answer, /^HTTP\/1\.1 401/)
      assert.ok(result.sent < 20 * MB, `the server read all ${result.sent} bytes`)
    } finally {
      t.ctx.config.deadlines = configured
    }
  })
})
