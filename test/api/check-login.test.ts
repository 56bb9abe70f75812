import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
before(async () => {
  t = await startApp()
})
after(() => t.close())

let seq = 0
const freshLogin = (prefix = 'chk') => `${prefix}_${process.pid}_${seq++}`

const check = (token: string | undefined, query: Record<string, string>) =>
  t.request('GET', `/v1/profiles/check-login?${new URLSearchParams(query)}`, { token })

describe(`GET /profiles/check-login (${STORE})`, () => {
  it('reports a free login as available with a null reason', async () => {
    const { token } = await makeAccount(t)
    const login = freshLogin('Free')
    const res = await check(token, { login })
    assert.equal(res.status, 200)
    assert.deepEqual(Object.keys(res.body.data).sort(), ['available', 'login', 'message', 'profile', 'reason'])
    assert.deepEqual({ ...res.body.data, message: undefined }, { login, profile: null, available: true, reason: null, message: undefined })
    assert.match(res.body.data.message, /available/)
  })

  it('reports invalid for a wrong length or wrong characters, at and past the bounds', async () => {
    const { token } = await makeAccount(t)
    for (const login of ['abc', 'x'.repeat(61), 'jane-doe', 'jane doe', 'jané', '']) {
      const { data } = (await check(token, { login })).body
      assert.deepEqual([data.available, data.reason], [false, 'invalid'], login)
      assert.ok(data.message)
    }
    for (const login of ['abcd', `v${seq++}`.padEnd(60, 'v')]) {
      assert.equal((await check(token, { login })).body.data.available, true, login)
    }
  })

  it('reports a digits-only login as available, saying that API paths reach it by id', async () => {
    const { token } = await makeAccount(t)
    const login = `${process.pid}${seq++}`.padStart(8, '7')
    const { data } = (await check(token, { login })).body
    assert.deepEqual([data.available, data.reason], [true, null])
    assert.match(data.message, new RegExp(`public page is /${login}.*always an id`))
  })

  it('reads a digits-only profile parameter as an id, so a page renamed to digits checks against itself', async () => {
    const { user, token } = await makeAccount(t)
    const mine = await makeProfile(t, user)
    const digits = `${process.pid}${seq++}`.padStart(9, '8')
    await t.request('PATCH', `/v1/profiles/${mine.id}/settings`, { token, body: { login: digits } })
    const own = (await check(token, { login: digits, profile: String(mine.id) })).body.data
    assert.deepEqual([own.available, own.reason], [true, null])
    assert.equal((await check(token, { login: digits })).body.data.reason, 'taken')
    assert.equal((await check(token, { login: freshLogin(), profile: digits })).status, 404)
  })

  it('reports reserved for each reserved word that passes the pattern, in any case', async () => {
    const { token } = await makeAccount(t)
    for (const login of ['Settings', 'LOGIN', 'webhook', 'sitemap', 'static', 'oauth']) {
      const { data } = (await check(token, { login })).body
      assert.deepEqual([data.available, data.reason], [false, 'reserved'], login)
    }
  })

  it('reports taken for a login any page holds, compared case-insensitively', async () => {
    const theirs = await makeProfile(t, await makeUser(t), freshLogin('Held'))
    const { user, token } = await makeAccount(t)
    const mine = await makeProfile(t, user)
    for (const login of [theirs.login, theirs.login.toUpperCase(), mine.login]) {
      const { data } = (await check(token, { login })).body
      assert.deepEqual([data.available, data.reason], [false, 'taken'], login)
    }
  })

  it("does not count the named profile's own login as taken, named by id or by login", async () => {
    const { user, token } = await makeAccount(t)
    const mine = await makeProfile(t, user, freshLogin('Mine'))
    for (const profile of [String(mine.id), mine.login]) {
      const { data } = (await check(token, { login: mine.login.toLowerCase(), profile })).body
      assert.deepEqual([data.available, data.reason, data.profile], [true, null, profile])
    }
  })

  it("still reports the login of the user's other page as taken when a profile is named", async () => {
    const { user, token } = await makeAccount(t)
    const a = await makeProfile(t, user)
    const b = await makeProfile(t, user)
    const { data } = (await check(token, { login: b.login, profile: String(a.id) })).body
    assert.deepEqual([data.available, data.reason], [false, 'taken'])
  })

  it('still applies the other rules when a profile is named', async () => {
    const { user, token } = await makeAccount(t)
    const mine = await makeProfile(t, user)
    const { data } = (await check(token, { login: 'register', profile: String(mine.id) })).body
    assert.deepEqual([data.available, data.reason], [false, 'reserved'])
  })

  it('reports a login as available again once its page moved away', async () => {
    const { user, token } = await makeAccount(t)
    const mine = await makeProfile(t, user)
    await t.request('PATCH', `/v1/profiles/${mine.id}/settings`, { token, body: { login: freshLogin() } })
    assert.equal((await check(token, { login: mine.login })).body.data.available, true)
  })

  it('answers 404 for a profile of another account or one that does not exist', async () => {
    const theirs = await makeProfile(t, await makeUser(t))
    const { token } = await makeAccount(t)
    for (const profile of [String(theirs.id), theirs.login, '999999999', 'no_such_page']) {
      const res = await check(token, { login: freshLogin(), profile })
      assert.equal(res.status, 404, profile)
      assert.equal(res.body.code, 'not_found')
    }
  })

  it('refuses a missing login and parameters over 255 characters with 422 naming them', async () => {
    const { token } = await makeAccount(t)
    const missing = await t.request('GET', '/v1/profiles/check-login', { token })
    assert.equal(missing.status, 422)
    assert.deepEqual(Object.keys(missing.body.errors), ['login'])
    const atLimit = await check(token, { login: 'x'.repeat(255) })
    assert.equal(atLimit.status, 200)
    assert.equal(atLimit.body.data.reason, 'invalid')
    const long = await check(token, { login: 'x'.repeat(256), profile: 'p'.repeat(256) })
    assert.equal(long.status, 422)
    assert.deepEqual(Object.keys(long.body.errors).sort(), ['login', 'profile'])
  })

  it('works with a read-only token', async () => {
    const user = await makeUser(t)
    const res = await check(await makeToken(t, user, ['profile:read']), { login: freshLogin() })
    assert.equal(res.status, 200)
  })

  it('refuses a request without a token with 401', async () => {
    assert.equal((await check(undefined, { login: freshLogin() })).status, 401)
  })
})
