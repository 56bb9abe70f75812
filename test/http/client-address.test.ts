import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { useHandClock } from '../helpers/rate-limits.ts'
import { BROWSER_UA } from '../pages/page-fixtures.ts'

const browser = (forwardedFor: string) => ({ 'user-agent': BROWSER_UA, accept: 'text/html', 'x-forwarded-for': forwardedFor })

// Over real sockets (fetch, not inject): the address is the socket's, and cache hits take the fast path.

/** Requests without a token from these forwarded addresses: their statuses (the address limit is 3). */
async function anonymousStatuses(t: TestApp, forwardedFor: string[]): Promise<number[]> {
  useHandClock(t)
  const statuses: number[] = []
  for (const f of forwardedFor) statuses.push((await fetch(`${t.url}/v1/me`, { headers: { 'x-forwarded-for': f } })).status)
  return statuses
}

/** Views and unique visitors of a fresh page viewed once from each forwarded address, twice over (misses, then cache hits). */
async function countedViews(t: TestApp, forwardedFor: string[]): Promise<{ views: number; uniqueVisitors: number }> {
  const { user, token } = await makeAccount(t)
  const profile = await makeProfile(t, user)
  let hits = 0
  for (let round = 0; round < 2; round++) {
    for (const f of forwardedFor) {
      const res = await fetch(`${t.url}/${profile.login}`, { headers: browser(f) })
      assert.equal(res.status, 200)
      hits += res.headers.get('x-request-id') === null ? 1 : 0
      await res.arrayBuffer()
    }
  }
  // The first view renders and fills the cache; the rest are answered before Fastify.
  assert.equal(hits, forwardedFor.length * 2 - 1)
  await t.ctx.intake.flush()
  const res = await t.request('GET', `/v1/profiles/${profile.id}/analytics`, { token })
  assert.equal(res.status, 200, res.text)
  return { views: res.body.data.totals.views, uniqueVisitors: res.body.data.totals.uniqueVisitors }
}

describe('TRUST_PROXY configuration', () => {
  it('takes addresses, CIDR ranges and the named ranges, separated by commas', () => {
    assert.deepEqual(loadConfig({ TRUST_PROXY: ' 10.0.0.1, 172.16.0.0/12,loopback, fd00::/8 ' }).trustProxy, [
      '10.0.0.1',
      '172.16.0.0/12',
      'loopback',
      'fd00::/8',
    ])
    assert.deepEqual(loadConfig({}).trustProxy, [])
  })

  it('refuses anything else at start, naming the variable and the entry', () => {
    for (const bad of ['proxy.example', '10.0.0.0/33', '10.0.0.1,everyone']) {
      assert.throws(
        () => loadConfig({ TRUST_PROXY: bad }),
        (err: unknown) => err instanceof ConfigError && err.variable === 'TRUST_PROXY' && /proxy\.example|10\.0\.0\.0\/33|everyone/.test(err.message),
      )
    }
  })
})

describe(`Client addresses with no proxy trusted (the default, ${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_ADDRESS_PER_MINUTE: '3' })
  })
  after(() => t.close())

  it('ignores X-Forwarded-For: a fresh forged address per request does not buy a fresh quota', async () => {
    assert.deepEqual(await anonymousStatuses(t, ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4']), [401, 401, 401, 429])
  })

  it('counts one visitor for views claiming different forwarded addresses', async () => {
    assert.deepEqual(await countedViews(t, ['203.0.113.1', '203.0.113.2', '203.0.113.3']), { views: 6, uniqueVisitors: 1 })
  })
})

describe(`Client addresses behind a trusted proxy (TRUST_PROXY=loopback, ${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_ADDRESS_PER_MINUTE: '3', TRUST_PROXY: 'loopback' })
  })
  after(() => t.close())

  it('gives each forwarded client its own per-address quota', async () => {
    assert.deepEqual(await anonymousStatuses(t, ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']), [401, 401, 401, 401])
    assert.deepEqual(await anonymousStatuses(t, ['198.51.100.9', '198.51.100.9', '198.51.100.9', '198.51.100.9']), [401, 401, 401, 429])
  })

  it('reads the header from the right: what the client wrote in front of the proxy is not believed', async () => {
    // The proxy appends the address it saw; anything to its left came from the client.
    const forged = ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'].map((f) => `${f}, 198.51.100.20`)
    assert.deepEqual(await anonymousStatuses(t, forged), [401, 401, 401, 429])
  })

  it('counts each forwarded visitor once, on cache misses (the routes) and hits (the fast path) alike', async () => {
    assert.deepEqual(await countedViews(t, ['198.51.100.31', '198.51.100.32', '198.51.100.33']), { views: 6, uniqueVisitors: 3 })
  })
})
