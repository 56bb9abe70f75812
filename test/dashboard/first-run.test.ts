import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { usersRepository } from '../../src/store/users.ts'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/dashboard.ts'

const errorsOf = (html: string) => Object.fromEntries([...html.matchAll(/id="f-(\w+)-error">([^<]*)</g)].map((m) => [m[1], m[2]]))

describe(`first run (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('shows a stranger at / what Slotline is, where to sign in or register, the API reference and the MCP address', async () => {
    const res = await Visitor.of(t).get('/')
    assert.equal(res.status, 200)
    assert.match(res.text, /One page for all your links/)
    assert.match(res.text, /<a class="button" href="\/login">Sign in<\/a>/)
    assert.match(res.text, /<a class="button secondary" href="\/register">Create an account<\/a>/)
    assert.match(res.text, /<a href="\/v1\/docs">API reference<\/a>/)
    assert.ok(res.text.includes(`<code>${t.url}/mcp</code>`))
  })

  it('reports every problem of an empty registration at once, saving nothing', async () => {
    const before = await usersRepository.count(t.ctx.db)
    const res = await Visitor.of(t).submit('/register', { name: '', email: '', password: '', timezone: 'UTC' })
    assert.equal(res.status, 422)
    assert.deepEqual(errorsOf(res.text), {
      name: 'Enter a name.',
      email: 'Enter your e-mail address.',
      password: 'Choose a password of at least 8 characters.',
    })
    assert.match(res.text, /3 fields need attention/)
    assert.equal(await usersRepository.count(t.ctx.db), before)
  })

  it('reports a bad e-mail, a short password and an unknown time zone together', async () => {
    const res = await Visitor.of(t).submit('/register', { name: 'Jane', email: 'not-an-address', password: 'short', timezone: 'Mars/Olympus' })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(errorsOf(res.text)).sort(), ['email', 'password', 'timezone'])
  })

  it('tells a person with a wrong password what to do, without "Nothing was saved."', async () => {
    const user = await makeUser(t)
    const res = await Visitor.of(t).submit('/login', { email: user.email, password: 'not the password' })
    assert.equal(res.status, 401)
    assert.doesNotMatch(res.text, /Nothing was saved/)
    assert.match(res.text, /role="alert">Check the e-mail and the password, then try again\. If you forgot the password, use “Forgot your password\?” below\./)
    assert.match(res.text, /<a href="\/login\/forgot">Forgot your password\?<\/a>/)
    const empty = await Visitor.of(t).submit('/login', { email: '', password: '' })
    assert.equal(empty.status, 422)
    assert.doesNotMatch(empty.text, /Nothing was saved/)
    assert.match(empty.text, /Fill in your e-mail and password to sign in\./)
  })

  it('without outgoing mail, says how the operator resets a password', async () => {
    const res = await Visitor.of(t).get('/login/forgot')
    assert.equal(res.status, 200)
    assert.match(res.text, /users set-password --email/)
  })
})

describe(`first run with REGISTRATION=closed (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ REGISTRATION: 'closed' })
  })
  after(() => t.close())

  it('offers sign-in only', async () => {
    const res = await Visitor.of(t).get('/')
    assert.equal(res.status, 200)
    assert.match(res.text, /href="\/login">Sign in</)
    assert.doesNotMatch(res.text, /href="\/register"/)
    assert.match(res.text, /created by the operator/)
  })
})
