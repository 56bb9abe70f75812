import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { codeFor, enrol } from '../helpers/two-factor.ts'
import { authorizationUrl, connect, consentForm, exchange } from './helpers.ts'

describe(`OAuth consent asks for the second factor when the account has one (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('approves only with a right code; denying needs none', async () => {
    const c = await connect(t)
    const { secret } = await enrol(c.visitor)
    const a = await authorizationUrl(t, c)
    const page = await c.visitor.get(a.url.pathname + a.url.search)
    assert.match(page.text, /autocomplete="one-time-code"/)
    assert.match(page.text, /value="deny" class="secondary" formnovalidate/)

    // Denying needs no code (and is not remembered).
    const b = await authorizationUrl(t, c)
    const denied = await c.visitor.post('/oauth/authorize', await consentForm(c.visitor, b.url, 'deny'))
    assert.equal(denied.status, 303)
    assert.equal(new URL(denied.location!).searchParams.get('error'), 'access_denied')

    const without = await c.visitor.post('/oauth/authorize', await consentForm(c.visitor, a.url))
    assert.equal(without.status, 401)
    assert.match(without.text, /That code did not work/)
    const wrong = await c.visitor.post('/oauth/authorize', { ...(await consentForm(c.visitor, a.url)), code: '000000' })
    assert.equal(wrong.status, 401)
    const right = await c.visitor.post('/oauth/authorize', { ...(await consentForm(c.visitor, a.url)), code: codeFor(secret, 1) })
    assert.equal(right.status, 303)
    const tokens = await exchange(c, new URL(right.location!), a)
    assert.ok(tokens.access_token)
  })

  it('an account without codes approves as before, with no code field', async () => {
    const c = await connect(t)
    const a = await authorizationUrl(t, c)
    const page = await c.visitor.get(a.url.pathname + a.url.search)
    assert.doesNotMatch(page.text, /one-time-code/)
    const res = await c.visitor.post('/oauth/authorize', await consentForm(c.visitor, a.url))
    assert.equal(res.status, 303)
  })
})
