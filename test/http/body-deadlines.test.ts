import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { uploadGrants } from '../../src/media/upload-grant-service.ts'
import { slotService } from '../../src/slots/slot-service.ts'
import { formsRepository } from '../../src/store/forms.ts'
import type { User } from '../../src/store/users.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

/**
 * A raw HTTP/1.1 client that sends the head and only the first bytes of a body, then waits for
 * what the server does: the answer it reads and whether the server closed the connection.
 */
function trickle(t: TestApp, head: string, firstBytes: string): Promise<{ status: number; headers: string; body: string; closedByServer: boolean }> {
  const { port } = new URL(t.url)
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: '127.0.0.1', port: Number(port) })
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => {
      received += chunk
    })
    socket.on('error', () => {}) // a reset after the answer is what a closed connection looks like here
    socket.on('close', () => {
      const [headers, ...rest] = received.split('\r\n\r\n')
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1])
      if (!status) return reject(new Error(`no answer: ${JSON.stringify(received)}`))
      resolve({ status, headers: headers.toLowerCase(), body: rest.join('\r\n\r\n'), closedByServer: true })
    })
    socket.write(`${head.replace(/\n/g, '\r\n')}\r\n\r\n${firstBytes}`)
  })
}

const jsonOf = (body: string) => JSON.parse(body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1))

describe(`Body and connection deadlines (${STORE})`, () => {
  let t: TestApp
  let user: User
  let token: string
  let formSlotId: number
  before(async () => {
    t = await startApp()
    ;({ user, token } = await makeAccount(t))
    const profile = await makeProfile(t, user)
    const form = await formsRepository.insert(t.ctx.db, {
      userId: user.id,
      title: 'Hi',
      description: '',
      fields: [{ name: 'name', label: 'Name', type: 'text', required: true }],
      submitLabel: 'Send',
    })
    const [slot] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'form', data: { formId: form.id, view: 'inline' } }])
    formSlotId = slot.id
    // Deadlines short enough for a test to wait for them; what is asserted is the answer, not the time.
    t.ctx.config.deadlines = { ...t.ctx.config.deadlines, bodyMs: 300, uploadMinBytesPerSecond: 1024, uploadWindowMs: 300 }
  })
  after(() => t.close())

  it('answers 408 and closes the connection when a form body trickles (POST /-/forms/<id>, Content-Length 60000)', async () => {
    const res = await trickle(
      t,
      `POST /-/forms/${formSlotId} HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/x-www-form-urlencoded\nContent-Length: 60000`,
      'name=a',
    )
    assert.equal(res.status, 408)
    assert.match(res.headers, /connection: close/)
    assert.equal(jsonOf(res.body).code, 'request_timeout')
    assert.ok(res.closedByServer)
  })

  it('answers 408 and closes the connection when a JSON body trickles, with a valid token', async () => {
    const res = await trickle(
      t,
      `POST /v1/profiles HTTP/1.1\nHost: 127.0.0.1\nAuthorization: Bearer ${token}\nContent-Type: application/json\nContent-Length: 5000`,
      '{"login":',
    )
    assert.equal(res.status, 408)
    assert.equal(jsonOf(res.body).code, 'request_timeout')
  })

  it('refuses a write without a token before its body arrives, and closes the connection when the rest is late', async () => {
    // The 300 ms body deadline would answer 408; a 401 shows the answer came first, from the head alone.
    // The rest of the body is still awaited (so a client still sending can read the answer), under
    // the same deadline: the trickle's connection is closed once it passes.
    const res = await trickle(t, 'PATCH /v1/profiles/x HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\nContent-Length: 60000', '{')
    assert.equal(res.status, 401)
    assert.equal(jsonOf(res.body).code, 'unauthenticated')
    assert.ok(res.closedByServer)
  })

  it('sends a dashboard form posted without a session to /login before its body arrives, and closes the connection when the rest is late', async () => {
    const res = await trickle(t, 'POST /settings HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/x-www-form-urlencoded\nContent-Length: 60000', 'name=')
    assert.equal(res.status, 303)
    assert.match(res.headers, /location: \/login/)
    assert.ok(res.closedByServer)
  })

  it('answers 408 when a sign-in form trickles', async () => {
    const res = await trickle(t, 'POST /login HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/x-www-form-urlencoded\nContent-Length: 60000', 'email=')
    assert.equal(res.status, 408)
    assert.match(res.headers, /connection: close/)
  })

  it('answers 408 to an upload that falls below the minimum rate, on an upload URL and on POST /v1/files', async () => {
    const grant = await uploadGrants.issue(t.ctx, t.ctx.db, user.id)
    const path = new URL(grant.upload_url).pathname
    const raw = await trickle(t, `PUT ${path} HTTP/1.1\nHost: 127.0.0.1\nContent-Type: image/png\nContent-Length: 1000000`, 'x'.repeat(10))
    assert.equal(raw.status, 408)
    assert.match(raw.headers, /connection: close/)
    const multipart = await trickle(
      t,
      `POST /v1/files HTTP/1.1\nHost: 127.0.0.1\nAuthorization: Bearer ${token}\nContent-Type: multipart/form-data; boundary=x\nContent-Length: 1000000`,
      '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
    )
    assert.equal(multipart.status, 408)
    assert.equal(jsonOf(multipart.body).code, 'request_timeout')
  })

  it('leaves a body that arrives whole alone', async () => {
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: 'on.time' } })
    assert.equal(res.status, 201)
  })

  it('answers 408 and closes a connection whose headers never finish (a slowloris)', async () => {
    const server = t.app.server
    const configured = server.headersTimeout
    // Node re-reads the limit at every check (every 5 s here); a short one keeps the test short.
    server.headersTimeout = 200
    try {
      const { port } = new URL(t.url)
      const answer = await new Promise<string>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: Number(port) })
        let received = ''
        socket.setEncoding('utf8')
        socket.on('data', (chunk) => {
          received += chunk
        })
        socket.on('error', () => {})
        socket.on('close', () => resolve(received))
        socket.write('GET /v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1')
      })
      assert.match(answer, /^HTTP\/1\.1 408/)
    } finally {
      server.headersTimeout = configured
    }
  })

  it('sets header, keep-alive and whole-request timeouts on the server on purpose', () => {
    const server = t.app.server
    assert.equal(server.headersTimeout, 15_000)
    assert.equal(server.keepAliveTimeout, 72_000)
    // The backstop lets 50 MB through at the default minimum rate (16 KiB/s): 3,200 s, plus a minute.
    assert.equal(server.requestTimeout, 3_260_000)
  })
})
