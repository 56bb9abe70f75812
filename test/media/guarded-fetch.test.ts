import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { type GuardedFetchOptions, guardedFetch, UrlRefused } from '../../src/media/guarded-fetch.ts'
import { loopbackNetwork } from './loopback-network.ts'

describe('guardedFetch', () => {
  let server: Server
  let port: number
  let dir: string
  const hostHeaders: string[] = []

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slotline-fetch-'))
    server = createServer((req, res) => {
      hostHeaders.push(String(req.headers.host))
      res.writeHead(200).end('bytes')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    port = (server.address() as AddressInfo).port
  })
  after(async () => {
    await new Promise((r) => server.close(r))
    rmSync(dir, { recursive: true, force: true })
  })

  const options = (net: ReturnType<typeof loopbackNetwork>, allow: string[]): GuardedFetchOptions => ({
    resolve: net.resolve,
    connect: net.connect,
    allowHostPorts: allow,
    maxBytes: 1024,
    timeoutMs: 5000,
    maxRedirects: 3,
    destination: join(dir, `out-${Math.random()}`),
  })

  it('connects to the address it checked, resolving the name once (no DNS rebinding)', async () => {
    let calls = 0
    // A rebinding resolver: loopback on the first answer, a private address on every later one.
    const net = loopbackNetwork({ 'rebind.test': () => (calls++ === 0 ? ['127.0.0.1'] : ['10.9.9.9']) })
    const opts = options(net, [`rebind.test:${port}`])
    const { size } = await guardedFetch(`http://rebind.test:${port}/a.png`, opts)
    assert.equal(size, 5)
    assert.equal(readFileSync(opts.destination, 'utf8'), 'bytes')
    assert.deepEqual(net.lookups, ['rebind.test'])
    assert.deepEqual(
      net.attempts.map((a) => a.address),
      ['127.0.0.1'],
    )
    // The request still names the host it was sent to.
    assert.equal(hostHeaders.at(-1), `rebind.test:${port}`)
  })

  it('refuses a name when any of its addresses is private', async () => {
    const net = loopbackNetwork({ 'mixed.test': ['203.0.114.1', '10.0.0.1'] })
    await assert.rejects(guardedFetch('http://mixed.test/a.png', options(net, [])), (err) => err instanceof UrlRefused && /private/.test(err.message))
    assert.equal(net.attempts.length, 0)
  })

  it('hands TLS the host name for SNI and certificate checks while connecting to the pinned address', async () => {
    const net = loopbackNetwork({ 'secure.test': ['127.0.0.1'] })
    await assert.rejects(guardedFetch('https://secure.test/a.png', options(net, ['secure.test:443'])), UrlRefused)
    assert.deepEqual(net.attempts, [{ address: '127.0.0.1', port: 443, tls: true, servername: 'secure.test' }])
  })

  it('does not ask the resolver about IP literals', async () => {
    const net = loopbackNetwork()
    await guardedFetch(`http://127.0.0.1:${port}/a.png`, options(net, [`127.0.0.1:${port}`]))
    assert.deepEqual(net.lookups, [])
  })

  it('turns a failed lookup into a refusal', async () => {
    const net = loopbackNetwork()
    await assert.rejects(guardedFetch('http://unknown.test/a.png', options(net, [])), (err) => err instanceof UrlRefused && /resolved/.test(err.message))
  })
})
