import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { describe, it } from 'node:test'
import { makeAccount, STORE, startApp } from '../helpers/app.ts'

describe(`Shutting down (${STORE})`, () => {
  it('finishes a request in flight, then closes its keep-alive connection instead of waiting for the keep-alive timeout', { timeout: 30_000 }, async () => {
    const t = await startApp()
    let closing: Promise<void> | undefined
    try {
      const { token } = await makeAccount(t)
      const socket = connect(Number(new URL(t.url).port), '127.0.0.1')
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
      // A keep-alive request whose body is half sent: it is in flight when the close begins.
      const body = JSON.stringify({ login: 'closing.time' })
      const started = new Promise((resolve) => t.app.server.once('request', resolve))
      socket.write(
        `POST /v1/profiles HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      )
      await started
      closing = t.close()

      const ended = new Promise<void>((resolve) => socket.once('end', resolve))
      let received = ''
      socket.setEncoding('latin1')
      socket.on('data', (chunk: string) => (received += chunk))
      socket.write(body.slice(10))
      // The server, not the client, ends the connection once the answer is out: the test's own
      // timeout (30 s) stands below the 72 s a forgotten keep-alive connection would hold.
      await ended
      socket.destroy()
      assert.match(received, /^HTTP\/1\.1 201 /)
      const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(received)?.[1])
      assert.equal(received.length - received.indexOf('\r\n\r\n') - 4, length, 'the whole answer arrived')
      await closing
    } finally {
      await (closing ?? t.close())
    }
  })
})
