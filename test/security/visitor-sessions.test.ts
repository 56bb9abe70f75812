import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, Visitor } from '../helpers/dashboard.ts'

describe(`anonymous visits store no sessions (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  const storedSessions = async () =>
    t.ctx.redis
      ? (await t.ctx.redis.keys(`${t.ctx.redis.options.keyPrefix ?? ''}session:*`)).length
      : Number(
          (
            await t.ctx.db
              .selectFrom('sessions')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        )

  it('500 anonymous GET /login and /register leave no session in the store', async () => {
    const before = await storedSessions()
    for (let i = 0; i < 500; i++) {
      const res = await fetch(`${t.url}${i % 2 ? '/register' : '/login'}`)
      assert.equal(res.status, 200)
      assert.ok(!res.headers.getSetCookie().some((c) => c.startsWith('slotline_session=')))
      await res.arrayBuffer()
    }
    assert.equal(await storedSessions(), before)
  })

  it('still signs in with the stateless token, and only then stores a session', async () => {
    const user = await makeUser(t)
    const before = await storedSessions()
    const v = Visitor.of(t)
    const page = await v.get('/login')
    const failed = await v.post('/login', { _csrf: csrfOf(page.text), email: user.email, password: 'wrong password' })
    assert.equal(failed.status, 401)
    assert.equal(await storedSessions(), before)
    const res = await v.post('/login', { _csrf: csrfOf(failed.text), email: user.email, password: 'correct horse battery' })
    assert.equal(res.status, 303)
    assert.equal(await storedSessions(), before + 1)
    assert.equal((await v.get('/settings')).status, 200)
  })

  it('refuses a visitor form without its cookie, with another visitor’s cookie, or with a made-up token', async () => {
    const user = await makeUser(t)
    const a = Visitor.of(t)
    const b = Visitor.of(t)
    const tokenA = csrfOf((await a.get('/login')).text)
    const tokenB = csrfOf((await b.get('/login')).text)
    assert.notEqual(tokenA, tokenB)
    const fields = { email: user.email, password: 'correct horse battery' }
    const noCookie = new Visitor(t.url)
    assert.equal((await noCookie.post('/login', { _csrf: tokenA, ...fields })).status, 403)
    assert.equal((await b.post('/login', { _csrf: tokenA, ...fields })).status, 403)
    assert.equal((await a.post('/login', { _csrf: 'x'.repeat(43), ...fields })).status, 403)
    assert.equal((await a.post('/login', fields)).status, 403)
    assert.equal((await a.post('/login', { _csrf: tokenA, ...fields })).status, 303)
  })
})
