import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, freshEmail, Visitor } from '../helpers/dashboard.ts'

const FIREFOX_PHONE = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0'
const CHROME_COMPUTER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/** Signs a visitor in with this user agent on every request of the sign-in. */
async function signInAs(t: TestApp, email: string, userAgent: string) {
  const v = Visitor.of(t)
  const form = await v.get('/login', { 'user-agent': userAgent })
  const body = new URLSearchParams({ _csrf: csrfOf(form.text), email, password: 'correct horse battery' }).toString()
  const res = await v.request('POST', '/login', body, { 'user-agent': userAgent })
  assert.equal(res.status, 303)
  return v
}

const handlesOn = (html: string) => [...html.matchAll(/action="\/settings\/sessions\/([0-9a-f]{32})\/end"/g)].map((m) => m[1])

describe(`sessions a person can see (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  async function account() {
    const email = freshEmail()
    const first = Visitor.of(t)
    await first.register({ email })
    return { email, first }
  }

  it('lists every signed-in browser with its device, browser family and place, this one marked', async () => {
    const { email, first } = await account()
    await signInAs(t, email, FIREFOX_PHONE)
    await signInAs(t, email, CHROME_COMPUTER)
    const page = await first.get('/settings/sessions')
    assert.equal(page.status, 200)
    assert.match(page.text, /3 browsers/)
    assert.match(page.text, /Firefox on phone/)
    assert.match(page.text, /Chrome on computer/)
    assert.match(page.text, /This browser/)
    // 127.0.0.1 is in no country's ranges.
    assert.match(page.text, /data-label="Place \(approximate\)">Unknown</)
    assert.equal(handlesOn(page.text).length, 2, 'a sign-out button for each other browser, none for this one')
  })

  it('signs out one browser: its next request goes to the sign-in page', async () => {
    const { email, first } = await account()
    const phone = await signInAs(t, email, FIREFOX_PHONE)
    assert.equal((await phone.get('/settings')).status, 200)
    const page = await first.get('/settings/sessions')
    const [handle] = handlesOn(page.text)
    const ended = await first.post(`/settings/sessions/${handle}/end`, { _csrf: csrfOf(page.text) })
    assert.equal(ended.status, 303)
    const next = await phone.get('/settings')
    assert.equal(next.status, 303)
    assert.match(next.location ?? '', /^\/login\?next=/)
    assert.equal((await first.get('/settings')).status, 200, 'this browser stays signed in')
    assert.match((await first.get('/settings/sessions')).text, /1 browser</)
  })

  it('signs out everywhere else and says how many', async () => {
    const { email, first } = await account()
    const a = await signInAs(t, email, FIREFOX_PHONE)
    const b = await signInAs(t, email, CHROME_COMPUTER)
    const done = await first.submit('/settings/sessions', {}, '/settings/sessions/end-others')
    assert.equal(done.status, 303)
    assert.match((await first.get('/settings/sessions')).text, /2 other browsers were signed out\./)
    assert.equal((await a.get('/my-links')).status, 303)
    assert.equal((await b.get('/my-links')).status, 303)
    assert.equal((await first.get('/my-links')).status, 200)
  })

  it("cannot sign out another account's browser", async () => {
    const mine = await account()
    const theirs = await account()
    const elsewhere = await signInAs(t, theirs.email, FIREFOX_PHONE)
    const [handle] = handlesOn((await theirs.first.get('/settings/sessions')).text)
    const page = await mine.first.get('/settings/sessions')
    const refused = await mine.first.post(`/settings/sessions/${handle}/end`, { _csrf: csrfOf(page.text) })
    assert.equal(refused.status, 404)
    assert.equal((await elsewhere.get('/settings')).status, 200)
  })

  it('a new password signs out the other browsers and says so', async () => {
    const { email, first } = await account()
    const phone = await signInAs(t, email, FIREFOX_PHONE)
    const changed = await first.submit('/settings', { currentPassword: 'correct horse battery', newPassword: 'another good password' }, '/settings/password')
    assert.equal(changed.status, 303)
    assert.match((await first.get('/settings')).text, /Other browsers signed in to your account were signed out/)
    assert.equal((await phone.get('/settings')).status, 303)
    const list = await first.get('/settings/sessions')
    assert.match(list.text, /1 browser</)
  })
})
