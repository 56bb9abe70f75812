import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, freshEmail, registeredVisitor, Visitor } from '../helpers/dashboard.ts'
import { usersRepository } from '../../src/store/users.ts'

describe(`a non-ASCII next is never a 500 (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('GET /login?next=/%E3%80%82evil.com, signed in, redirects to the same path percent-encoded', async () => {
    const { v } = await registeredVisitor(t)
    const res = await v.get('/login?next=/%E3%80%82evil.com')
    assert.equal(res.status, 303)
    assert.equal(res.location, '/%E3%80%82evil.com')
  })

  it('POST /login with it signs in and lands on that path on this site', async () => {
    const { user } = await registeredVisitor(t)
    const v = Visitor.of(t)
    const page = await v.get('/login?next=/%E3%80%82evil.com')
    assert.equal(page.status, 200)
    const res = await v.post('/login', { _csrf: csrfOf(page.text), email: user.email, password: 'correct horse battery', next: '/\u3002evil.com' })
    assert.equal(res.status, 303)
    assert.equal(res.location, '/%E3%80%82evil.com')
    assert.equal((await v.get('/settings')).status, 200)
  })

  it('POST /register with next=/☃ creates the account and signs it in', async () => {
    const v = Visitor.of(t)
    const email = freshEmail()
    const res = await v.submit('/register', { name: 'Snow', email, password: 'correct horse battery', timezone: 'UTC', next: '/\u2603' })
    assert.equal(res.status, 303)
    assert.equal(res.location, '/%E2%98%83')
    assert.ok(await usersRepository.findByEmail(t.ctx.db, email))
    assert.equal((await v.get('/settings')).status, 200)
  })

  it('keeps Latin-1 and astral characters as UTF-8 escapes too', async () => {
    const { v } = await registeredVisitor(t)
    assert.equal((await v.get(`/login?next=${encodeURIComponent('/caf\u00e9/\u{1F600}')}`)).location, '/caf%C3%A9/%F0%9F%98%80')
  })
})
