import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import { account } from '../../src/core/use-cases.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { type Fleet, startFleet } from '../fleet/fleet.ts'

// Verified tokens are kept in process (src/auth/verified-tokens.ts); each test first uses the
// token so it is cached, then changes it through a use case and expects the very next request
// to see the change, with no waiting.

describe(`verified tokens kept in process, one instance (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('refuses a revoked token on its next request', async () => {
    const { user, token } = await makeAccount(t)
    for (let i = 0; i < 2; i++) assert.equal((await t.request('GET', '/v1/me', { token })).status, 200)
    const [record] = await useCases.tokens.list(t.ctx, ownerPrincipal(user))
    await useCases.tokens.revoke(t.ctx, ownerPrincipal(user), { tokenId: record.id })
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 401)
  })

  it('shows an account change on the next request', async () => {
    const { user, token } = await makeAccount(t)
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 200)
    await useCases.account.update(t.ctx, ownerPrincipal(user), { name: 'Renamed Owner', email: user.email, timezone: user.timezone })
    const me = await t.request('GET', '/v1/me', { token })
    assert.equal(me.status, 200)
    assert.match(me.text, /Renamed Owner/)
  })

  it('refuses the token of a deleted account on its next request', async () => {
    const { user, token } = await makeAccount(t)
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 200)
    await account.delete(t.ctx, ownerPrincipal(user), { proof: { currentPassword: 'correct horse battery' } })
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 401)
  })

  it('keeps other accounts’ tokens cached and valid when one account changes', async () => {
    const a = await makeAccount(t)
    const b = await makeAccount(t)
    assert.equal((await t.request('GET', '/v1/me', { token: b.token })).status, 200)
    const [record] = await useCases.tokens.list(t.ctx, ownerPrincipal(a.user))
    await useCases.tokens.revoke(t.ctx, ownerPrincipal(a.user), { tokenId: record.id })
    assert.equal((await t.request('GET', '/v1/me', { token: b.token })).status, 200)
    assert.equal((await t.request('GET', '/v1/me', { token: a.token })).status, 401)
  })
})

describe('verified tokens on two instances sharing PostgreSQL and Redis', {
  skip: STORE !== 'postgres' && 'needs TEST_DATABASE_URL and TEST_REDIS_URL',
}, () => {
  let fleet: Fleet
  before(async () => {
    fleet = await startFleet()
  })
  after(() => fleet?.close())

  /** An account whose token both instances have verified (and so cached). */
  async function usedOnBoth() {
    const [a, b] = fleet.instances
    const account = await makeAccount(a)
    for (const instance of [a, b]) assert.equal((await instance.request('GET', '/v1/me', { token: account.token })).status, 200)
    return account
  }

  it('refuses a token revoked through one instance on its next request to the other', async () => {
    const [a, b] = fleet.instances
    const { user, token } = await usedOnBoth()
    const [record] = await useCases.tokens.list(a.ctx, ownerPrincipal(user))
    await useCases.tokens.revoke(a.ctx, ownerPrincipal(user), { tokenId: record.id })
    assert.equal((await b.request('GET', '/v1/me', { token })).status, 401)
  })

  it('refuses the token of an account deleted through one instance on its next request to the other', async () => {
    const [a, b] = fleet.instances
    const { user, token } = await usedOnBoth()
    await account.delete(a.ctx, ownerPrincipal(user), { proof: { currentPassword: 'correct horse battery' } })
    assert.equal((await b.request('GET', '/v1/me', { token })).status, 401)
  })

  it('shows an account changed through one instance on the next request to the other', async () => {
    const [a, b] = fleet.instances
    const { user, token } = await usedOnBoth()
    await useCases.account.update(a.ctx, ownerPrincipal(user), { name: 'Renamed Elsewhere', email: user.email, timezone: user.timezone })
    assert.match((await b.request('GET', '/v1/me', { token })).text, /Renamed Elsewhere/)
  })

  it('re-reads a cached token when Redis has lost its revision', async () => {
    const [a, b] = fleet.instances
    const { user, token } = await usedOnBoth()
    await b.ctx.redis?.del(`tokens:revision:${user.id}`)
    const [record] = await useCases.tokens.list(a.ctx, ownerPrincipal(user))
    // Deleted straight from the store, so only a re-read can notice.
    await b.ctx.db.deleteFrom('tokens').where('id', '=', record.id).execute()
    assert.equal((await b.request('GET', '/v1/me', { token })).status, 401)
  })
})
