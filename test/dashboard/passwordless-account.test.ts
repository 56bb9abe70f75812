import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { usersRepository } from '../../src/store/users.ts'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, registeredVisitor } from '../helpers/dashboard.ts'
import { addSoftPasskey, passkeyAnswer } from '../helpers/passkeys.ts'
import { codeFor, enrol } from '../helpers/two-factor.ts'

// An account that dropped its password (it has a passkey and recovery codes) changes its e-mail
// and deletes itself with what it signs in with: its passkey, a code or a recovery code. Nothing
// else confirms it, and a refusal says what to give. Single sign-on accounts, which confirm at
// their provider, are in single-sign-on.test.ts.
const PASSWORD = 'correct horse battery'

/** An account with a passkey and two-factor codes, whose password was then removed. */
async function passwordless(t: TestApp) {
  const { v, user } = await registeredVisitor(t)
  const passkey = await addSoftPasskey(t, user.id)
  const { secret, recoveryCodes } = await enrol(v)
  const dropped = await v.submit('/settings/passkeys', { currentPassword: PASSWORD }, '/settings/passkeys/password')
  assert.equal(dropped.status, 303)
  return { v, user, passkey, secret, recoveryCodes }
}

const emailOf = async (t: TestApp, id: number) => (await usersRepository.findById(t.ctx.db, id))?.email

describe(`an account without a password changes its e-mail and deletes itself (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('asks for the new e-mail alone, then for a code or the passkey, and changes it with a right code', async () => {
    const { v, user, secret } = await passwordless(t)
    const settings = await v.get('/settings')
    assert.doesNotMatch(settings.text, /name="emailCurrentPassword"/)
    assert.match(settings.text, /Your account has no password/)
    const newEmail = `moved.${user.email}`
    const asked = await v.submit('/settings', { newEmail }, '/settings/email')
    assert.equal(asked.status, 200)
    assert.match(asked.text, /<h1>Confirm it is you<\/h1>/)
    assert.match(asked.text, /Confirm with your passkey/)
    assert.match(asked.text, /autocomplete="one-time-code"/)
    assert.match(asked.text, new RegExp(`<input type="hidden" name="newEmail" value="${newEmail.replace(/\./g, '\\.')}">`))
    assert.equal(await emailOf(t, user.id), user.email)

    const wrong = await v.post('/settings/email', { _csrf: csrfOf(asked.text), newEmail, code: '000000' })
    assert.equal(wrong.status, 422)
    assert.match(wrong.text, /That code did not work/)
    assert.equal(await emailOf(t, user.id), user.email)

    const right = await v.post('/settings/email', { _csrf: csrfOf(asked.text), newEmail, code: codeFor(secret, 1) })
    assert.equal(right.status, 303)
    assert.match((await v.get('/settings')).text, new RegExp(`Your e-mail is now ${newEmail.replace(/\./g, '\\.')}`))
    assert.equal(await emailOf(t, user.id), newEmail)
  })

  it('changes the e-mail with its passkey; refuses another account’s passkey and an empty answer', async () => {
    const { v, user, passkey } = await passwordless(t)
    const stranger = await addSoftPasskey(t, (await makeUser(t)).id)
    const newEmail = `keyed.${user.email}`
    const asked = await v.submit('/settings', { newEmail }, '/settings/email')
    const csrf = csrfOf(asked.text)
    const foreign = await v.post('/settings/email', { _csrf: csrf, newEmail, credential: await passkeyAnswer(v, csrf, stranger, t.url) })
    assert.equal(foreign.status, 422)
    assert.match(foreign.text, /This passkey was not accepted/)
    const empty = await v.post('/settings/email', { _csrf: csrf, newEmail, credential: '' })
    assert.equal(empty.status, 422)
    assert.match(empty.text, /Passkeys need JavaScript/)
    assert.equal(await emailOf(t, user.id), user.email)
    const right = await v.post('/settings/email', { _csrf: csrf, newEmail, credential: await passkeyAnswer(v, csrf, passkey, t.url) })
    assert.equal(right.status, 303)
    assert.equal(await emailOf(t, user.id), newEmail)
  })

  it('does not use up a recovery code on an address that cannot be used', async () => {
    const { v, user, recoveryCodes } = await passwordless(t)
    const csrf = csrfOf((await v.get('/settings')).text)
    const malformed = await v.post('/settings/email', { _csrf: csrf, newEmail: 'not an address', code: recoveryCodes[0] })
    assert.equal(malformed.status, 422)
    assert.match(malformed.text, /id="f-newEmail-error"/)
    assert.doesNotMatch(malformed.text, /That code did not work/)
    const newEmail = `recovered.${user.email}`
    assert.equal((await v.post('/settings/email', { _csrf: csrf, newEmail, code: recoveryCodes[0] })).status, 303)
    assert.equal(await emailOf(t, user.id), newEmail)
  })

  it('refuses the old password as a confirmation, saying what to give, and changes nothing', async () => {
    const { v, user } = await passwordless(t)
    const page = await v.get('/settings/delete')
    assert.doesNotMatch(page.text, /name="currentPassword"/)
    const refused = await v.submit('/settings/delete', { currentPassword: PASSWORD })
    assert.equal(refused.status, 422)
    assert.match(refused.text, /Your account has no password: confirm it is you with your passkey, or a code from your authenticator app/)
    assert.match(refused.text, /Nothing was deleted/)
    assert.ok(await usersRepository.findById(t.ctx.db, user.id))
    // With the e-mail, the password is no answer either: the form asks for the second step.
    const asked = await v.submit('/settings', { newEmail: `other.${user.email}`, emailCurrentPassword: PASSWORD }, '/settings/email')
    assert.match(asked.text, /<h1>Confirm it is you<\/h1>/)
    assert.equal(await emailOf(t, user.id), user.email)
  })

  it('deletes itself with a recovery code; a wrong code deletes nothing', async () => {
    const { v, user, recoveryCodes } = await passwordless(t)
    const page = await v.get('/settings/delete')
    assert.match(page.text, /Delete my account forever with your passkey/)
    const wrong = await v.submit('/settings/delete', { code: 'aaaaa-bbbbb' })
    assert.equal(wrong.status, 422)
    assert.match(wrong.text, /That code did not work/)
    assert.ok(await usersRepository.findById(t.ctx.db, user.id))
    const right = await v.submit('/settings/delete', { code: recoveryCodes[1] })
    assert.equal(right.status, 200)
    assert.match(right.text, /Your account is deleted/)
    assert.equal(await usersRepository.findById(t.ctx.db, user.id), undefined)
    assert.equal((await v.get('/settings')).status, 303)
  })

  it('deletes itself with its passkey', async () => {
    const { v, user, passkey } = await passwordless(t)
    const csrf = csrfOf((await v.get('/settings/delete')).text)
    const done = await v.post('/settings/delete', { _csrf: csrf, credential: await passkeyAnswer(v, csrf, passkey, t.url) })
    assert.equal(done.status, 200)
    assert.match(done.text, /Your account is deleted/)
    assert.equal(await usersRepository.findById(t.ctx.db, user.id), undefined)
  })

  it('keeps asking an account with a password for it', async () => {
    const { v, user } = await registeredVisitor(t)
    await addSoftPasskey(t, user.id)
    const settings = await v.get('/settings')
    assert.match(settings.text, /name="emailCurrentPassword"/)
    const refused = await v.submit('/settings/delete', { code: '123456' })
    assert.equal(refused.status, 422)
    assert.match(refused.text, /This is not your current password/)
    assert.ok(await usersRepository.findById(t.ctx.db, user.id))
  })
})
