import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf } from '../helpers/dashboard.ts'
import { addSoftPasskey, passkeyAnswer } from '../helpers/passkeys.ts'
import { codeFor, enrol } from '../helpers/two-factor.ts'
import { usersRepository } from '../../src/store/users.ts'
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

  it('asks an account with a passkey and no codes for its passkey, and takes only a right answer', async () => {
    const c = await connect(t)
    const user = (await usersRepository.findByEmail(t.ctx.db, c.email))!
    const passkey = await addSoftPasskey(t, user.id)
    const stranger = await addSoftPasskey(t, (await makeUser(t)).id)
    const a = await authorizationUrl(t, c)
    const page = await c.visitor.get(a.url.pathname + a.url.search)
    assert.equal(page.status, 200)
    assert.match(page.text, /<button type="submit">Approve with your passkey<\/button>/)
    assert.match(page.text, /data-options="\/settings\/confirm\/passkey-options"/)
    assert.doesNotMatch(page.text, /one-time-code/, 'no code field without codes')
    assert.doesNotMatch(page.text, /name="decision" value="approve">Approve</, 'no approval without the passkey')
    assert.match(page.text, /value="deny" class="secondary" formnovalidate/)
    const csrf = csrfOf(page.text)

    // Approving as an account without a second factor does: refused, nothing handed out.
    const plain = await c.visitor.post('/oauth/authorize', await consentForm(c.visitor, a.url))
    assert.equal(plain.status, 401)
    assert.match(plain.text, /Passkeys need JavaScript/)
    // Another account's passkey, and an answer whose challenge is spent.
    const foreign = await c.visitor.post('/oauth/authorize', {
      ...(await consentForm(c.visitor, a.url)),
      credential: await passkeyAnswer(c.visitor, csrf, stranger, t.url),
    })
    assert.equal(foreign.status, 401)
    assert.match(foreign.text, /This passkey was not accepted/)
    const right = await c.visitor.post('/oauth/authorize', {
      ...(await consentForm(c.visitor, a.url)),
      credential: await passkeyAnswer(c.visitor, csrf, passkey, t.url),
    })
    assert.equal(right.status, 303)
    const tokens = await exchange(c, new URL(right.location!), a)
    assert.ok(tokens.access_token)
  })

  it('offers both ways to an account with codes and a passkey', async () => {
    const c = await connect(t)
    const user = (await usersRepository.findByEmail(t.ctx.db, c.email))!
    const { secret } = await enrol(c.visitor)
    await addSoftPasskey(t, user.id)
    const a = await authorizationUrl(t, c)
    const page = await c.visitor.get(a.url.pathname + a.url.search)
    assert.match(page.text, /Approve with your passkey/)
    assert.match(page.text, /autocomplete="one-time-code"/)
    const right = await c.visitor.post('/oauth/authorize', { ...(await consentForm(c.visitor, a.url)), code: codeFor(secret, 1) })
    assert.equal(right.status, 303)
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
