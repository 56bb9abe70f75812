import assert from 'node:assert/strict'
import type { AppError } from '../../src/kernel/errors.ts'
import { countSignIn } from '../../src/dashboard/sign-in-limits.ts'
import { after, before, describe, it } from 'node:test'
import { hashPassword } from '../../src/auth/secrets.ts'
import { usersRepository } from '../../src/store/users.ts'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, freshEmail, Visitor } from '../helpers/dashboard.ts'
import { scryptHashForTest } from './legacy-hash.ts'

describe(`dashboard accounts (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  describe('GET/POST /register', () => {
    it('creates the account, signs it in and lands on /my-links', async () => {
      const v = Visitor.of(t)
      const email = freshEmail()
      const res = await v.register({ name: 'Jane Doe', email, timezone: 'Europe/Berlin' })
      assert.equal(res.location, '/my-links')
      const user = await usersRepository.findByEmail(t.ctx.db, email)
      assert.equal(user?.timezone, 'Europe/Berlin')
      assert.match(user!.passwordHash, /^\$argon2id\$/)
      const settings = await v.get('/settings')
      assert.equal(settings.status, 200)
      assert.match(settings.text, /value="Jane Doe"/)
    })

    it('sets the session cookie HttpOnly and SameSite=Lax, not Secure over http', async () => {
      const res = await Visitor.of(t).register({ email: freshEmail() })
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('slotline_session='))!
      assert.match(cookie, /HttpOnly/i)
      assert.match(cookie, /SameSite=Lax/i)
      assert.doesNotMatch(cookie, /Secure/i)
    })

    it('keeps the other fields and names the field when the password is short', async () => {
      const v = Visitor.of(t)
      const res = await v.submit('/register', { name: 'Kept Name', email: 'kept@example.test', password: 'short', timezone: 'Asia/Tokyo' })
      assert.equal(res.status, 422)
      assert.match(res.text, /id="f-password-error">Must be at least 8 characters/)
      assert.match(res.text, /value="Kept Name"/)
      assert.match(res.text, /value="kept@example.test"/)
      assert.match(res.text, /<option selected>Asia\/Tokyo<\/option>/)
      assert.equal(await usersRepository.findByEmail(t.ctx.db, 'kept@example.test'), undefined)
    })

    it('refuses an e-mail in use without confirming whose it is', async () => {
      const existing = await makeUser(t)
      const res = await Visitor.of(t).submit('/register', { name: 'X', email: existing.email, password: 'long enough pass', timezone: 'UTC' })
      assert.equal(res.status, 422)
      assert.match(res.text, /This e-mail cannot be used for a new account/)
      assert.doesNotMatch(res.text, /already exists/)
    })

    it('lands on a same-origin next after registering, as sign-in does', async () => {
      const v = Visitor.of(t)
      const form = await v.get('/register?next=%2Fsettings%2Ftokens')
      assert.match(form.text, /name="next" value="\/settings\/tokens"/)
      assert.match(form.text, /<a href="\/login\?next=%2Fsettings%2Ftokens">Sign in<\/a>/)
      const res = await v.post('/register', {
        _csrf: csrfOf(form.text),
        name: 'Next Person',
        email: freshEmail(),
        password: 'long enough pass',
        timezone: 'UTC',
        next: '/settings/tokens',
      })
      assert.equal(res.status, 303)
      assert.equal(res.location, '/settings/tokens')
      assert.equal((await v.get('/settings/tokens')).status, 200, 'signed in')
    })

    it('keeps next when the form comes back with errors', async () => {
      const res = await Visitor.of(t).submit('/register?next=%2Fsettings%2Ftokens', {
        name: 'N',
        email: freshEmail(),
        password: 'short',
        timezone: 'UTC',
        next: '/settings/tokens',
      })
      assert.equal(res.status, 422)
      assert.match(res.text, /name="next" value="\/settings\/tokens"/)
    })

    for (const next of ['https://evil.example/', '//evil.example', '/\\evil.example']) {
      it(`lands on /my-links, never off the site, after registering with next=${JSON.stringify(next)}`, async () => {
        const v = Visitor.of(t)
        const form = await v.get(`/register?next=${encodeURIComponent(next)}`)
        assert.match(form.text, /name="next" value="\/my-links"/)
        const res = await v.post('/register', { _csrf: csrfOf(form.text), name: 'N', email: freshEmail(), password: 'long enough pass', timezone: 'UTC', next })
        assert.equal(res.status, 303)
        assert.equal(res.location, '/my-links')
      })
    }

    it('shows HTML in a name as text', async () => {
      const v = Visitor.of(t)
      await v.register({ name: '<img src=x onerror=alert(1)>', email: freshEmail() })
      const page = await v.get('/settings')
      assert.match(page.text, /value="&lt;img src=x onerror=alert\(1\)&gt;"/)
      assert.doesNotMatch(page.text, /<img src=x/)
    })
  })

  describe('POST /login', () => {
    it('gives one message for a wrong password and an unknown e-mail', async () => {
      const user = await makeUser(t)
      const wrong = await Visitor.of(t).submit('/login', { email: user.email, password: 'not the password' })
      const unknown = await Visitor.of(t).submit('/login', { email: freshEmail(), password: 'not the password' })
      assert.equal(wrong.status, 401)
      assert.equal(unknown.status, 401)
      const message = (html: string) => /id="f-password-error">([^<]*)</.exec(html)?.[1]
      assert.equal(message(wrong.text), 'The e-mail or the password is not right.')
      assert.equal(message(unknown.text), message(wrong.text))
      assert.match(wrong.text, new RegExp(`value="${user.email}"`))
    })

    it('gives a new session id at sign-in', async () => {
      // Visitors have no session to plant (their forms are stateless); a session of another
      // account held by the browser is the one an attacker could plant, and it is replaced.
      const [planter, user] = [await makeUser(t), await makeUser(t)]
      const v = Visitor.of(t)
      await v.signIn(planter.email)
      const before = v.cookies.get('slotline_session')
      assert.ok(before)
      const page = await v.get('/settings')
      const res = await v.post('/login', { _csrf: csrfOf(page.text), email: user.email, password: 'correct horse battery' })
      assert.equal(res.status, 303)
      assert.notEqual(v.cookies.get('slotline_session'), before)
      // The planted id is worth nothing now.
      const planted = new Visitor(t.url)
      planted.cookies.set('slotline_session', before!)
      assert.equal((await planted.get('/settings')).status, 303)
    })

    it('signs in a user whose password was hashed with scrypt by older versions, and rehashes it', async () => {
      const user = await makeUser(t)
      await usersRepository.update(t.ctx.db, user.id, { passwordHash: await scryptHashForTest('old scrypt password') })
      await Visitor.of(t).signIn(user.email, 'old scrypt password')
      const after = await usersRepository.findById(t.ctx.db, user.id)
      assert.match(after!.passwordHash, /^\$argon2id\$/)
      await Visitor.of(t).signIn(user.email, 'old scrypt password')
    })

    it('sends a signed-out visitor to /login?next= and back after sign-in', async () => {
      const user = await makeUser(t)
      const v = Visitor.of(t)
      const first = await v.get('/settings?tab=1')
      assert.equal(first.status, 303)
      assert.equal(first.location, '/login?next=%2Fsettings%3Ftab%3D1')
      const form = await v.get(first.location!)
      assert.match(form.text, /name="next" value="\/settings\?tab=1"/)
      const res = await v.post('/login', { _csrf: csrfOf(form.text), email: user.email, password: 'correct horse battery', next: '/settings?tab=1' })
      assert.equal(res.location, '/settings?tab=1')
    })

    it('carries next along to the Create one link, and leaves the link plain without one', async () => {
      const withNext = await Visitor.of(t).get('/login?next=%2Fsettings%2Ftokens')
      assert.match(withNext.text, /<a href="\/register\?next=%2Fsettings%2Ftokens">Create one<\/a>/)
      const plain = await Visitor.of(t).get('/login')
      assert.match(plain.text, /<a href="\/register">Create one<\/a>/)
      const evil = await Visitor.of(t).get(`/login?next=${encodeURIComponent('//evil.example')}`)
      assert.match(evil.text, /<a href="\/register">Create one<\/a>/)
    })

    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '/%0d%0aSet-Cookie:x', '\t//evil.example']) {
      it(`never redirects off the site (next=${JSON.stringify(next)})`, async () => {
        const user = await makeUser(t)
        const v = Visitor.of(t)
        const res = await v.submit(`/login?next=${encodeURIComponent(next)}`, { email: user.email, password: 'correct horse battery', next })
        assert.equal(res.status, 303)
        assert.ok(res.location!.startsWith('/') && !res.location!.startsWith('//') && !res.location!.startsWith('/\\'), res.location!)
        assert.ok(new URL(res.location!, t.url).origin === t.url)
      })
    }
  })

  it('shows a visitor of / what this is (test/dashboard/first-run.test.ts), and sends a signed-in user to their pages', async () => {
    const v = Visitor.of(t)
    assert.equal((await v.get('/')).status, 200)
    await v.register({ email: freshEmail() })
    assert.equal((await v.get('/')).location, '/my-links')
  })

  it('answers an unknown address under the dashboard with a 404 page', async () => {
    for (const path of ['/settings/nothing', '/my-links/1/nothing/here']) {
      const res = await Visitor.of(t).get(path)
      assert.equal(res.status, 404, path)
      assert.match(res.headers.get('content-type')!, /text\/html/)
      assert.match(res.text, /<h1>Not found<\/h1>/)
    }
  })

  describe('POST /logout', () => {
    it('ends the session in the store, so the old cookie no longer signs in', async () => {
      const v = Visitor.of(t)
      await v.register({ email: freshEmail() })
      const cookie = v.cookies.get('slotline_session')!
      const settings = await v.get('/settings')
      const out = await v.post('/logout', { _csrf: csrfOf(settings.text) })
      assert.equal(out.status, 303)
      assert.equal(out.location, '/login')
      const replay = new Visitor(t.url)
      replay.cookies.set('slotline_session', cookie)
      assert.equal((await replay.get('/settings')).status, 303)
    })
  })

  describe('POST /settings', () => {
    it('changes name and time zone, and never the e-mail (that asks for the password)', async () => {
      const v = Visitor.of(t)
      const email = freshEmail()
      await v.register({ email })
      const res = await v.submit('/settings', { name: 'New Name', email: freshEmail(), timezone: 'America/New_York' })
      assert.equal(res.status, 303)
      const page = await v.get('/settings')
      assert.match(page.text, /Your details are saved/)
      const user = await usersRepository.findByEmail(t.ctx.db, email)
      assert.equal(user?.name, 'New Name')
      assert.equal(user?.timezone, 'America/New_York')
    })

    it('refuses a missing or wrong CSRF token with 403 and changes nothing', async () => {
      const v = Visitor.of(t)
      const email = freshEmail()
      await v.register({ name: 'Before', email })
      const missing = await v.post('/settings', { name: 'After', email, timezone: 'UTC' })
      const wrong = await v.post('/settings', { _csrf: 'x'.repeat(40), name: 'After', email, timezone: 'UTC' })
      for (const res of [missing, wrong]) {
        assert.equal(res.status, 403)
        assert.match(res.text, /Nothing was changed/)
        assert.match(res.headers.get('content-type')!, /text\/html/)
      }
      // Another session's token is no good here either.
      const other = Visitor.of(t)
      const foreign = csrfOf((await other.get('/login')).text)
      assert.equal((await v.post('/settings', { _csrf: foreign, name: 'After', email, timezone: 'UTC' })).status, 403)
      assert.equal((await usersRepository.findByEmail(t.ctx.db, email))?.name, 'Before')
    })

    it('names each bad field and keeps the others', async () => {
      const v = Visitor.of(t)
      await v.register({ email: freshEmail() })
      const res = await v.submit('/settings', { name: 'Still Here', timezone: 'Mars/Olympus' })
      assert.equal(res.status, 422)
      assert.match(res.text, /id="f-timezone-error">/)
      assert.match(res.text, /value="Still Here"/)
    })

    it('changes the password with the current one and signs out other browsers', async () => {
      const email = freshEmail()
      const here = Visitor.of(t)
      await here.register({ email })
      const elsewhere = Visitor.of(t)
      await elsewhere.signIn(email)
      const refused = await here.submit('/settings', { currentPassword: 'wrong one', newPassword: 'a new password' }, '/settings/password')
      assert.equal(refused.status, 422)
      assert.match(refused.text, /This is not your current password/)
      const res = await here.submit('/settings', { currentPassword: 'correct horse battery', newPassword: 'a new password' }, '/settings/password')
      assert.equal(res.status, 303)
      assert.equal((await here.get('/settings')).status, 200)
      assert.equal((await elsewhere.get('/settings')).status, 303)
      await Visitor.of(t).signIn(email, 'a new password')
    })
  })

  it('hashes new passwords with argon2id', async () => {
    assert.match(await hashPassword('x'.repeat(12)), /^\$argon2id\$v=19\$/)
  })
})

describe(`dashboard with REGISTRATION=closed and an https PUBLIC_URL (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ REGISTRATION: 'closed', PUBLIC_URL: 'https://links.example' })
  })
  after(() => t.close())

  it('shows and refuses /register with 403, creating nobody', async () => {
    const v = Visitor.of(t)
    const page = await v.get('/register')
    assert.equal(page.status, 403)
    assert.match(page.text, /Registration is closed/)
    const csrf = csrfOf((await v.get('/login')).text)
    const res = await v.post('/register', { _csrf: csrf, name: 'N', email: 'closed@example.test', password: 'long enough pass', timezone: 'UTC' })
    assert.equal(res.status, 403)
    assert.equal(await usersRepository.findByEmail(t.ctx.db, 'closed@example.test'), undefined)
  })

  it('marks the session cookie Secure', async () => {
    const user = await makeUser(t)
    const res = await Visitor.of(t).signIn(user.email)
    assert.match(res.headers.getSetCookie().find((c) => c.startsWith('__Host-slotline_session='))!, /; Secure/)
  })
})

describe(`dashboard sign-in limits (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_SIGN_IN_PER_10_MINUTES: '4' })
  })
  after(() => t.close())

  it('answers 429 with Retry-After after 4 attempts on one e-mail, then refuses even the right password while the wait lasts', async () => {
    const user = await makeUser(t)
    const v = Visitor.of(t)
    for (let i = 0; i < 4; i++) assert.equal((await v.submit('/login', { email: user.email, password: `wrong ${i}` })).status, 401)
    const limited = await v.submit('/login', { email: user.email, password: 'correct horse battery' })
    assert.equal(limited.status, 429)
    assert.ok(Number(limited.headers.get('retry-after')) > 0)
    assert.match(limited.text, /Too many attempts/)
    assert.match(limited.text, /nothing is locked/)
    // Another account from the same address is not held up by it.
    const other = await makeUser(t)
    await Visitor.of(t).signIn(other.email)
  })

  it('counts an e-mail per address, so attempts from elsewhere never make its owner wait', async () => {
    const user = await makeUser(t)
    for (let i = 0; i < 4; i++) await countSignIn(t.ctx, '203.0.113.7', user.email)
    await assert.rejects(countSignIn(t.ctx, '203.0.113.7', user.email), (e: AppError) => e.code === 'rate_limited')
    await Visitor.of(t).signIn(user.email)
  })

  it('limits registrations per address', async () => {
    const v = Visitor.of(t)
    for (let i = 0; i < 4; i++) await v.submit('/register', { name: 'N', email: freshEmail(), password: 'short', timezone: 'UTC' })
    const limited = await v.submit('/register', { name: 'N', email: freshEmail(), password: 'long enough pass', timezone: 'UTC' })
    assert.equal(limited.status, 429)
  })
})
