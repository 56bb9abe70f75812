import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { NOT_AVAILABLE } from '../../src/http/discovery-document.ts'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

describe(`GET / (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('describes the API without a token', async () => {
    const res = await t.request('GET', '/v1/')
    assert.equal(res.status, 200)
    const d = res.body.data
    assert.equal(d.name, 'Slotline')
    assert.equal(d.version, 'v1')
    assert.equal(d.baseUrl, `${t.url}/v1`)
    assert.equal(d.authentication.scheme, 'bearer')
    assert.equal(d.authentication.tokenPrefix, 'slp_')
    assert.equal(d.authentication.issuedAt, `${t.url}/settings/tokens`)
    assert.deepEqual(
      d.authentication.abilities.map((a: any) => a.name),
      ['profile:read', 'profile:write'],
    )
    for (const key of ['me', 'slotTypes', 'profileSettings', 'openapi', 'profileMarkdown', 'musicLookup', 'analytics', 'profileAnalytics']) {
      assert.match(d.discovery[key], /^http:\/\/127\.0\.0\.1:\d+\/v1\//, key)
    }
    assert.ok(d.conventions && d.limits && Array.isArray(d.examples) && d.examples.length > 0)
    assert.equal(d.notAvailable.length, 4)
    assert.deepEqual(d.notAvailable, NOT_AVAILABLE)
  })

  it('answers at /v1 without the trailing slash too', async () => {
    assert.equal((await t.request('GET', '/v1')).status, 200)
  })
})

describe(`GET /me (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('requires a token', async () => {
    assert.equal((await t.request('GET', '/v1/me')).status, 401)
  })

  it('reports identity, abilities and live limits', async () => {
    const user = await makeUser(t, { timezone: 'Europe/Berlin', name: 'Ada' })
    const token = await makeToken(t, user)
    await makeToken(t, user, ['profile:read'])
    await makeProfile(t, user)
    const res = await t.request('GET', '/v1/me', { token })
    assert.equal(res.status, 200)
    const me = res.body.data
    assert.equal(me.userId, user.id)
    assert.equal(me.name, 'Ada')
    assert.deepEqual(me.abilities, ['profile:read', 'profile:write'])
    assert.equal(me.canWrite, true)
    assert.deepEqual(me.limits.profiles, { used: 1, max: 100 })
    assert.deepEqual(me.limits.tokens, { used: 2, max: 5 })
    assert.equal(me.limits.slotsPerProfile, 500)
    assert.equal(me.limits.slotsPerBatch, 50)
    assert.deepEqual(me.limits.upload, { maxMegabytes: 50, maxMegabytesFromUrl: 10 })
    assert.deepEqual(me.analytics, { retentionDays: 365, timezone: 'Europe/Berlin' })
  })

  it('says a read-only token cannot write', async () => {
    const user = await makeUser(t)
    const token = await makeToken(t, user, ['profile:read'])
    const me = (await t.request('GET', '/v1/me', { token })).body.data
    assert.equal(me.canWrite, false)
    assert.deepEqual(me.abilities, ['profile:read'])
  })

  it('refuses a token without profile:read with 403', async () => {
    const user = await makeUser(t)
    const token = await makeToken(t, user, ['profile:write'])
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 403)
  })

  it('counts profiles of this user only', async () => {
    const { token } = await makeAccount(t)
    assert.equal((await t.request('GET', '/v1/me', { token })).body.data.limits.profiles.used, 0)
  })
})
