import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { customDomainsRepository } from '../../src/store/custom-domains.ts'
import { makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

/** A domain in `state` for a fresh page, written straight to the store (the DNS path has its own suite). */
async function domainIn(t: TestApp, name: string, state: 'pending' | 'active' | 'failing' | 'removed') {
  const profile = await makeProfile(t, await makeUser(t))
  const d = await customDomainsRepository.create(t.ctx.db, { profileId: profile.id, name, token: 'x' })
  if (state !== 'pending') await customDomainsRepository.update(t.ctx.db, d.id, { state })
}

describe(`GET /-/domains/allowed (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    // One request a minute per address: the ask endpoint must not be counted at all.
    t = await startApp({ DOMAINS_ASK_FROM: '198.51.100.0/24', RATE_LIMIT_ADDRESS_PER_MINUTE: '1', PUBLIC_URL: 'http://slotline.test' })
    await domainIn(t, 'active.example.test', 'active')
    await domainIn(t, 'pending.example.test', 'pending')
    await domainIn(t, 'failing.example.test', 'failing')
    await domainIn(t, 'removed.example.test', 'removed')
  })
  after(() => t.close())

  const ask = (domain: string, options: { from?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({ method: 'GET', url: `/-/domains/allowed?domain=${encodeURIComponent(domain)}`, remoteAddress: options.from, headers: options.headers })

  it('answers 200 for an active domain, over real HTTP from loopback, however its case is written', async () => {
    const res = await fetch(`${t.url}/-/domains/allowed?domain=Active.Example.TEST`)
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('cache-control'), 'no-store')
  })

  it('answers 404 for pending, failing, removed, unknown and malformed names, and without a name', async () => {
    for (const domain of ['pending.example.test', 'failing.example.test', 'removed.example.test', 'unknown.example.test', 'slotline.test', '', '%%%', 'a..b']) {
      assert.equal((await ask(domain)).statusCode, 404, domain)
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/-/domains/allowed' })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'GET', url: '/-/domains/allowed?domain=a&domain=b' })).statusCode, 404)
  })

  it('answers only loopback and DOMAINS_ASK_FROM, never a request relayed by a proxy', async () => {
    assert.equal((await ask('active.example.test', { from: '198.51.100.20' })).statusCode, 200)
    assert.equal((await ask('active.example.test', { from: '203.0.113.9' })).statusCode, 404)
    assert.equal((await ask('active.example.test', { headers: { 'x-forwarded-for': '203.0.113.9' } })).statusCode, 404)
    assert.equal((await ask('active.example.test', { headers: { forwarded: 'for=203.0.113.9' } })).statusCode, 404)
  })

  it('is never rate limited', async () => {
    const statuses = await Promise.all(Array.from({ length: 30 }, () => ask('active.example.test', { from: '198.51.100.20' })))
    assert.deepEqual(new Set(statuses.map((r) => r.statusCode)), new Set([200]))
  })
})
