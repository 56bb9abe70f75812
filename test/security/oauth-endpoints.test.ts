import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import type * as oauth from 'oauth4webapi'
import { configureMedia } from '../../src/media/media.ts'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/dashboard.ts'
import { loopbackNetwork } from '../media/loopback-network.ts'
import { authorizationUrl, REDIRECT, tokensFor } from '../oauth/helpers.ts'

async function form(t: TestApp, path: string, body: string) {
  const res = await fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> }
}

describe(`OAuth endpoints: repeated parameters, 429 shape (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_ADDRESS_PER_MINUTE: '60' })
  })
  after(() => t.close())

  it('refuses a parameter sent twice at /oauth/token and /oauth/revoke with invalid_request (RFC 6749 §3.1)', async () => {
    const { c, tokens } = await tokensFor(t)
    const id = c.client.client_id
    const refresh = String(tokens.refresh_token)
    const twice = await form(t, '/oauth/token', `grant_type=refresh_token&client_id=${id}&refresh_token=${refresh}&refresh_token=${refresh}`)
    assert.equal(twice.status, 400)
    assert.equal(twice.body.error, 'invalid_request')
    assert.match(String(twice.body.error_description), /refresh_token was sent more than once/)
    const grantTwice = await form(t, '/oauth/token', `grant_type=refresh_token&grant_type=authorization_code&client_id=${id}&refresh_token=${refresh}`)
    assert.equal(grantTwice.body.error, 'invalid_request')
    const revokeTwice = await form(t, '/oauth/revoke', `client_id=${id}&token=${refresh}&token=${String(tokens.access_token)}`)
    assert.equal(revokeTwice.status, 400)
    assert.equal(revokeTwice.body.error, 'invalid_request')
    // Nothing was revoked or rotated by the refused calls: the refresh token still works once.
    const ok = await form(t, '/oauth/token', `grant_type=refresh_token&client_id=${id}&refresh_token=${refresh}`)
    assert.equal(ok.status, 200)
  })

  it('answers the registration limit with a 429 in OAuth’s {error, error_description}', async () => {
    const statuses: number[] = []
    let last: Response | undefined
    for (let i = 0; i < 11; i++) {
      last = await fetch(`${t.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT] }),
      })
      statuses.push(last.status)
      if (i < 10) await last.arrayBuffer()
    }
    assert.equal(statuses.at(-1), 429)
    const body = (await last!.json()) as Record<string, unknown>
    assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description'])
    assert.equal(body.error, 'too_many_requests')
    assert.ok(Number(last!.headers.get('retry-after')) > 0)
  })
})

describe(`client metadata documents: no resolver oracle, no unlimited re-fetch (${STORE})`, () => {
  let t: TestApp
  let host: Server
  let base: string
  let served = 0
  before(async () => {
    host = createServer((req, res) => {
      served++
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ client_id: `${base}${req.url}`, client_name: 'No-store agent', redirect_uris: [REDIRECT] }))
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const address = host.address()
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    t = await startApp({ OAUTH_METADATA_ALLOW_HOSTS: new URL(base).host })
  })
  after(async () => {
    host.close()
    await t.close()
  })

  const authorizePage = async (v: Visitor, clientId: string) => {
    const a = await authorizationUrl(t, { client: { client_id: clientId } as oauth.Client })
    return v.get(a.url.pathname + a.url.search)
  }

  it('fetches a no-store document once for ten authorization requests in a row', async () => {
    const v = Visitor.of(t)
    await v.register({ email: `nostore.${Date.now()}@example.test` })
    const before = served
    for (let i = 0; i < 10; i++) assert.equal((await authorizePage(v, `${base}/no-store.json`)).status, 200)
    assert.equal(served - before, 1)
  })

  it('answers an internal name that resolves to a private address as one that does not resolve', async () => {
    const network = loopbackNetwork({ 'db.internal': ['10.0.0.5'], 'empty.internal': [] })
    configureMedia(t.ctx, { resolve: network.resolve, connect: network.connect })
    const v = Visitor.of(t)
    const alert = async (name: string) => {
      const res = await authorizePage(v, `https://${name}/client.json`)
      assert.equal(res.status, 400)
      return /role="alert">([^<]*)</.exec(res.text)![1].replaceAll(name, 'NAME')
    }
    const [resolvesPrivate, resolvesNothing, noAddress] = [await alert('db.internal'), await alert('missing.internal'), await alert('empty.internal')]
    assert.equal(resolvesPrivate, resolvesNothing)
    assert.equal(noAddress, resolvesNothing)
    assert.doesNotMatch(resolvesPrivate, /private|resolved|10\.0\.0\.5/)
    assert.deepEqual(network.attempts, [], 'and nothing was connected to')
  })
})
