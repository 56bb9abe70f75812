import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { freshEmail, Visitor } from '../helpers/dashboard.ts'
import { useHandClock } from '../helpers/rate-limits.ts'
import { accounts } from '../../src/auth/accounts.ts'
import { usersRepository } from '../../src/store/users.ts'

/** The default limits (RATE_LIMIT_SIGN_IN_PER_10_MINUTES=10 and its derived ones), as a fresh install has. */
const DEFAULT_LIMITS = { RATE_LIMIT_SIGN_IN_PER_10_MINUTES: '10', RATE_LIMIT_ADDRESS_PER_MINUTE: '60' }

describe(`account settings are no oracle (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp(DEFAULT_LIMITS)
  })
  after(() => t.close())
  // Every test starts from empty counters (they all come from 127.0.0.1).
  beforeEach(() => void useHandClock(t))

  async function signedIn() {
    const user = await makeUser(t)
    const v = Visitor.of(t)
    await v.signIn(user.email)
    return { v, user }
  }

  it('throttles wrong current passwords at /settings/password like sign-in: 40 guesses, most refused unheard', async () => {
    const { v, user } = await signedIn()
    const statuses: number[] = []
    for (let i = 0; i < 40; i++)
      statuses.push((await v.submit('/settings', { currentPassword: `guess ${i}`, newPassword: 'a new password' }, '/settings/password')).status)
    assert.ok(statuses.filter((s) => s === 422).length <= 10, `422s: ${statuses.filter((s) => s === 422).length}`)
    assert.equal(statuses.at(-1), 429)
    const right = await v.submit('/settings', { currentPassword: 'correct horse battery', newPassword: 'a new password' }, '/settings/password')
    assert.equal(right.status, 429)
    assert.ok(Number(right.headers.get('retry-after')) > 0)
    const stored = (await usersRepository.findById(t.ctx.db, user.id))!
    assert.equal(await accounts.signIn(t.ctx.db, user.email, 'correct horse battery').then((u) => u?.id), stored.id, 'the password is unchanged')
  })

  it('limits e-mail changes like registration: 30 probes of taken and free addresses, most refused unheard', async () => {
    const { v } = await signedIn()
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) {
      const email = i % 2 ? (await makeUser(t)).email : freshEmail()
      statuses.push((await v.submit('/settings', { newEmail: email, emailCurrentPassword: 'correct horse battery' }, '/settings/email')).status)
    }
    assert.ok(statuses.filter((s) => s !== 429).length <= 10, `answered: ${statuses.join(' ')}`)
    assert.equal(statuses.at(-1), 429)
  })

  it('still saves name and time zone when the e-mail stays', async () => {
    const { v, user } = await signedIn()
    for (let i = 0; i < 12; i++)
      assert.equal((await v.submit('/settings', { name: `Name ${i}`, email: user.email.toUpperCase(), timezone: 'UTC' })).status, 303)
  })
})
