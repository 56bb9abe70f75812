import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

describe(`HTTP conventions (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('answers unknown routes with the error envelope', async () => {
    const res = await t.request('GET', '/v1/nothing-here')
    assert.equal(res.status, 404)
    assert.equal(res.body.code, 'not_found')
    assert.equal(typeof res.body.message, 'string')
    assert.match(res.body.documentation, /\/v1\/docs#error-not_found$/)
  })

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const { token } = await makeAccount(t)
    const res = await t.request('DELETE', '/v1/me', { token })
    assert.equal(res.status, 405)
    assert.equal(res.body.code, 'method_not_allowed')
    assert.match(String(res.headers.allow), /GET/)
  })

  it('answers malformed JSON with a 400 envelope', async () => {
    const { token } = await makeAccount(t)
    const res = await t.request('POST', '/v1/profiles', {
      token,
      payload: '{"login": ',
      headers: { 'content-type': 'application/json' },
    })
    assert.equal(res.status, 400)
    assert.equal(res.body.code, 'malformed_request')
  })

  it('answers an unsupported content type with a 415 envelope', async () => {
    const { token } = await makeAccount(t)
    const res = await t.request('POST', '/v1/profiles', { token, payload: 'login=abcd', headers: { 'content-type': 'text/plain' } })
    assert.equal(res.status, 415)
    assert.equal(res.body.code, 'unsupported_media_type')
  })

  it('answers a body over the limit with a 413 envelope', async () => {
    const { token } = await makeAccount(t)
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: 'x'.repeat(9 * 1024 * 1024) } })
    assert.equal(res.status, 413)
    assert.equal(res.body.code, 'payload_too_large')
  })

  it('refuses a missing token with 401 and a Bearer challenge', async () => {
    const res = await t.request('GET', '/v1/me')
    assert.equal(res.status, 401)
    assert.equal(res.body.code, 'unauthenticated')
    assert.match(String(res.headers['www-authenticate']), /^Bearer/)
  })

  it('refuses a well-formed but unknown token with 401', async () => {
    const res = await t.request('GET', '/v1/me', { token: `slp_${'a'.repeat(40)}` })
    assert.equal(res.status, 401)
  })

  it('refuses a revoked token on the very next request', async () => {
    const user = await makeUser(t)
    const token = await makeToken(t, user)
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 200)
    // Revoked as every face revokes, through the core, which tells the verified-token caches.
    const [record] = await useCases.tokens.list(t.ctx, ownerPrincipal(user))
    await useCases.tokens.revoke(t.ctx, ownerPrincipal(user), { tokenId: record.id })
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 401)
  })

  it('gives a read-only token 403 on a write', async () => {
    const user = await makeUser(t)
    const token = await makeToken(t, user, ['profile:read'])
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: 'readonly.try' } })
    assert.equal(res.status, 403)
    assert.equal(res.body.code, 'forbidden')
  })

  it("answers another account's profile with 404, by id and by login", async () => {
    const other = await makeUser(t)
    const theirs = await makeProfile(t, other)
    const { token } = await makeAccount(t)
    for (const key of [String(theirs.id), theirs.login]) {
      const res = await t.request('GET', `/v1/profiles/${key}`, { token })
      assert.equal(res.status, 404)
      assert.equal(res.body.code, 'not_found')
    }
  })

  it('records lastUsedAt when a token is used', async () => {
    const user = await makeUser(t)
    const token = await makeToken(t, user)
    await t.request('GET', '/v1/me', { token })
    const { tokensRepository } = await import('../../src/store/tokens.ts')
    const [record] = await tokensRepository.listByUser(t.ctx.db, user.id)
    assert.ok(record.lastUsedAt)
  })

  it('limits a user to 5 tokens', async () => {
    const user = await makeUser(t)
    for (let i = 0; i < 5; i++) await makeToken(t, user)
    await assert.rejects(makeToken(t, user), (err: any) => err.code === 'limit_reached' && err.status === 409)
  })
})

describe('mergeErrors', () => {
  it('keeps a field named __proto__ as an own key instead of replacing the prototype', async () => {
    const { mergeErrors } = await import('../../src/kernel/errors.ts')
    const merged = mergeErrors({}, JSON.parse('{"__proto__": ["Unknown field: remove it."], "constructor": ["x"]}'))
    assert.deepEqual(Object.keys(merged).sort(), ['__proto__', 'constructor'])
    assert.equal(Object.getPrototypeOf(merged), Object.prototype)
  })
})
