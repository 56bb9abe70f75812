import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'

describe(`Precognition: true on writes (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('answers 204 with Precognition headers and stores nothing', async () => {
    const { user, token } = await makeAccount(t)
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: 'dry.run.page' }, headers: { precognition: 'true' } })
    assert.equal(res.status, 204)
    assert.equal(res.text, '')
    assert.equal(res.headers.precognition, 'true')
    assert.equal(res.headers['precognition-success'], 'true')
    assert.match(String(res.headers.vary), /Precognition/)
    assert.equal(await profilesRepository.countByUser(t.ctx.db, user.id), 0)
    assert.equal(await profilesRepository.findByLogin(t.ctx.db, 'dry.run.page'), undefined)
  })

  it('answers the very 422 the real call would give', async () => {
    const { token } = await makeAccount(t)
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: 'no', extra: 1 }, headers: { precognition: 'true' } })
    assert.equal(res.status, 422)
    assert.equal(res.headers.precognition, 'true')
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['extra', 'login'])
  })

  it('answers the very 409 the real call would give', async () => {
    const { user, token } = await makeAccount(t)
    for (let i = 0; i < 100; i++) await profilesRepository.insert(t.ctx.db, { userId: user.id, login: `lim${user.id}x${i}`, isMain: i === 0 })
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: 'one.too.many' }, headers: { precognition: 'true' } })
    assert.equal(res.status, 409)
    assert.equal(res.body.code, 'limit_reached')
  })

  it('honours Precognition-Validate-Only by reporting only the named fields', async () => {
    const { token } = await makeAccount(t)
    const headers = { precognition: 'true', 'precognition-validate-only': 'login' }
    const onlyExtra = await t.request('POST', '/v1/profiles', { token, body: { login: 'fine.login', extra: 1 }, headers })
    assert.equal(onlyExtra.status, 204)
    const badLogin = await t.request('POST', '/v1/profiles', { token, body: { login: 'x', extra: 1 }, headers })
    assert.equal(badLogin.status, 422)
    assert.deepEqual(Object.keys(badLogin.body.errors), ['login'])
  })

  it('never validates less than the real call, whatever field names the client picks', async () => {
    const { token } = await makeAccount(t)
    const body = JSON.parse('{"login":"fine.proto","__proto__":{"x":1}}')
    const real = await t.request('POST', '/v1/profiles', { token, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
    assert.equal(real.status, 422)
    assert.deepEqual(Object.keys(real.body.errors), ['__proto__'])
    for (const only of ['__proto__', '__proto__,login', 'constructor,__proto__']) {
      const headers = { 'content-type': 'application/json', precognition: 'true', 'precognition-validate-only': only }
      const dry = await t.request('POST', '/v1/profiles', { token, payload: JSON.stringify(body), headers })
      assert.equal(dry.status, 422, only)
      assert.deepEqual(Object.keys(dry.body.errors), ['__proto__'], only)
    }
  })

  it('keeps the error of a parent of a named field: data.title cannot be valid while data is not an object', async () => {
    const { user, token } = await makeAccount(t)
    const profile = await profilesRepository.insert(t.ctx.db, { userId: user.id, login: `parent${user.id}x`, isMain: true })
    const body = { type: 'text', data: 'not an object' }
    const path = `/v1/profiles/${profile.login}/slots`
    const real = await t.request('POST', path, { token, body })
    assert.equal(real.status, 422)
    const dry = await t.request('POST', path, { token, body, headers: { precognition: 'true', 'precognition-validate-only': 'data.title' } })
    assert.equal(dry.status, 422)
    assert.ok(Object.keys(dry.body.errors).every((k) => Object.hasOwn(real.body.errors, k)))
  })

  it('is ignored on reads', async () => {
    const { token } = await makeAccount(t)
    const res = await t.request('GET', '/v1/me', { token, headers: { precognition: 'true' } })
    assert.equal(res.status, 200)
    assert.ok(res.body.data)
  })
})
