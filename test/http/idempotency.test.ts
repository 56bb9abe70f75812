import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'

describe(`Idempotency-Key on writes (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('replays the stored response to a repeat and creates nothing more', async () => {
    const { user, token } = await makeAccount(t)
    const headers = { 'idempotency-key': 'create-once-1' }
    const first = await t.request('POST', '/v1/profiles', { token, body: { login: 'idem.first' }, headers })
    assert.equal(first.status, 201)
    assert.equal(first.headers['idempotent-replayed'], undefined)
    const again = await t.request('POST', '/v1/profiles', { token, body: { login: 'idem.first' }, headers })
    assert.equal(again.status, 201)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.deepEqual(again.body, first.body)
    assert.equal(await profilesRepository.countByUser(t.ctx.db, user.id), 1)
  })

  it('refuses the same key with a different body with 422 idempotency_mismatch', async () => {
    const { token } = await makeAccount(t)
    const headers = { 'idempotency-key': 'mismatch-1' }
    assert.equal((await t.request('POST', '/v1/profiles', { token, body: { login: 'idem.one' }, headers })).status, 201)
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: 'idem.two' }, headers })
    assert.equal(res.status, 422)
    assert.equal(res.body.code, 'idempotency_mismatch')
  })

  it('refuses a key longer than 128 characters with 422 naming the header', async () => {
    const { token } = await makeAccount(t)
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: 'idem.long' }, headers: { 'idempotency-key': 'k'.repeat(129) } })
    assert.equal(res.status, 422)
    assert.ok(res.body.errors['Idempotency-Key'])
    const ok = await t.request('POST', '/v1/profiles', { token, body: { login: 'idem.long' }, headers: { 'idempotency-key': 'k'.repeat(128) } })
    assert.equal(ok.status, 201)
  })

  it('keeps keys per user: the same key from another account is a new request', async () => {
    const a = await makeAccount(t)
    const b = await makeAccount(t)
    const headers = { 'idempotency-key': 'shared-key' }
    assert.equal((await t.request('POST', '/v1/profiles', { token: a.token, body: { login: 'idem.user.a' }, headers })).status, 201)
    const res = await t.request('POST', '/v1/profiles', { token: b.token, body: { login: 'idem.user.b' }, headers })
    assert.equal(res.status, 201)
    assert.equal(res.headers['idempotent-replayed'], undefined)
  })

  it('does not keep a validation failure, so the key can be used once the request is fixed', async () => {
    const { token } = await makeAccount(t)
    const headers = { 'idempotency-key': 'fix-and-retry' }
    assert.equal((await t.request('POST', '/v1/profiles', { token, body: { login: 'x' }, headers })).status, 422)
    assert.equal((await t.request('POST', '/v1/profiles', { token, body: { login: 'idem.fixed' }, headers })).status, 201)
  })

  it('executes 20 concurrent requests with one key exactly once', async () => {
    const { user, token } = await makeAccount(t)
    const headers = { 'idempotency-key': 'burst-20' }
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${t.url}/v1/profiles`, {
          method: 'POST',
          headers: { ...headers, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ login: 'idem.burst' }),
        }).then(async (r) => ({ status: r.status, replayed: r.headers.get('idempotent-replayed'), body: await r.json() })),
      ),
    )
    assert.deepEqual(
      results.map((r) => r.status),
      Array(20).fill(201),
    )
    assert.equal(results.filter((r) => r.replayed !== 'true').length, 1)
    assert.equal(new Set(results.map((r) => r.body.data.id)).size, 1)
    assert.equal(await profilesRepository.countByUser(t.ctx.db, user.id), 1)
  })

  it('purges records past the 24-hour window', async () => {
    const { user } = await makeAccount(t)
    await t.ctx.idempotency.claim(user.id, 'old-key', 'print')
    await t.ctx.idempotency.complete(user.id, 'old-key', { status: 201, contentType: null, payload: '' })
    if (t.ctx.redis) {
      const ttl = await t.ctx.redis.pttl(`slotline:idem:${user.id}:old-key`)
      assert.ok(ttl > 23 * 3600_000 && ttl <= 24 * 3600_000, `Redis expiry ${ttl}`)
      return
    }
    await t.ctx.db
      .updateTable('idempotency_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute()
    assert.ok((await t.ctx.idempotency.purgeExpired()) >= 1)
    assert.equal((await t.ctx.idempotency.claim(user.id, 'old-key', 'other')).kind, 'claimed')
  })
})
