import assert from 'node:assert/strict'
import { request } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { makeAccount, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/dashboard.ts'

/** A raw request with a Host header of our choosing (fetch always sends the URL's). */
function withHost(t: TestApp, method: string, path: string, host: string, headers: Record<string, string> = {}, body?: string) {
  const url = new URL(t.url)
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers: { host, ...headers } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rebinding-page', version: '0' } },
})

describe(`/mcp checks Host as well as Origin (${STORE})`, () => {
  let t: TestApp
  let token: string
  before(async () => {
    t = await startApp({ PUBLIC_URL: 'https://links.example' })
    token = (await makeAccount(t)).token
  })
  after(() => t.close())

  const mcpHeaders = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' })

  // A name that is neither the service's own nor an active custom domain is refused before any
  // route, /mcp's own Host check included: the plain 404 of an unknown host.
  it('refuses a request for a rebound name with 404, without an Origin, GET or POST', async () => {
    const post = await withHost(t, 'POST', '/mcp', 'attacker.example', mcpHeaders(), initialize)
    assert.equal(post.status, 404)
    assert.doesNotMatch(post.text, /jsonrpc|serverInfo/)
    const get = await withHost(t, 'GET', '/mcp', 'attacker.example:80', mcpHeaders())
    assert.equal(get.status, 404)
  })

  it('serves its own name, and IP literals or localhost that cannot be rebound', async () => {
    for (const host of ['links.example', '127.0.0.1:8080', '[::1]', 'localhost:3000']) {
      const res = await withHost(t, 'POST', '/mcp', host, mcpHeaders(), initialize)
      assert.equal(res.status, 200, host)
    }
  })
})

describe(`https PUBLIC_URL: HSTS and __Host- cookies (${STORE})`, () => {
  let t: TestApp
  let plain: TestApp
  before(async () => {
    t = await startApp({ PUBLIC_URL: 'https://links.example' })
    plain = await startApp()
  })
  after(async () => {
    await t.close()
    await plain.close()
  })

  it('sends Strict-Transport-Security on every answer over https, and none over http', async () => {
    for (const path of ['/v1/', '/login', '/no-such-page', '/.well-known/oauth-authorization-server']) {
      assert.match(String((await fetch(`${t.url}${path}`)).headers.get('strict-transport-security')), /max-age=31536000/, path)
      assert.equal((await fetch(`${plain.url}${path}`)).headers.get('strict-transport-security'), null, path)
    }
  })

  it('names the visitor and session cookies __Host-, Secure, Path=/ and without Domain', async () => {
    const user = await makeUser(t)
    const v = Visitor.of(t)
    const page = await v.get('/login')
    const visitorCookie = page.headers.getSetCookie().find((c) => c.startsWith('__Host-slotline_visitor='))
    assert.ok(visitorCookie, page.headers.getSetCookie().join(' | '))
    const signedIn = await v.signIn(user.email)
    const sessionCookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('__Host-slotline_session='))
    assert.ok(sessionCookie)
    for (const c of [visitorCookie, sessionCookie]) {
      assert.match(c!, /; Secure/)
      assert.match(c!, /; Path=\//)
      assert.doesNotMatch(c!, /Domain=/i)
    }
    assert.equal((await v.get('/settings')).status, 200)
  })
})
