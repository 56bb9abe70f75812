import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { unzipSync } from 'fflate'
import { makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, freshEmail, Visitor } from '../helpers/dashboard.ts'
import { useHandClock } from '../helpers/rate-limits.ts'
import { addSoftPasskey, passkeyAnswer, SoftPasskey } from '../helpers/passkeys.ts'
import { codeFor, enrol, secretOn, signInWithCode } from '../helpers/two-factor.ts'
import { accounts } from '../../src/auth/accounts.ts'
import { twoFactor } from '../../src/core/use-cases.ts'
import { usersRepository } from '../../src/store/users.ts'

async function signedUp(t: TestApp) {
  const v = Visitor.of(t)
  const email = freshEmail()
  await v.register({ email })
  return { v, email }
}

describe(`two-factor codes (${STORE})`, () => {
  let t: TestApp
  const lines: string[] = []
  before(async () => {
    const log = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString())
        done()
      },
    })
    t = await startApp({ LOG_LEVEL: 'trace' }, { logTo: log })
  })
  after(() => t.close())

  it('enrols by QR code and a typed code, after the password; without it, or with a wrong code, nothing turns on', async () => {
    const { v, email } = await signedUp(t)
    const off = await v.get('/settings/two-factor')
    assert.match(off.text, /Two-factor codes are <strong>off<\/strong>/)
    assert.doesNotMatch(off.text, /Set up two-factor codes/)
    const user = (await usersRepository.findByEmail(t.ctx.db, email))!
    const seeds = () => t.ctx.db.selectFrom('totp_authenticators').select('user_id').where('user_id', '=', user.id).execute()
    // A session alone (a stolen cookie): a crafted start is refused, and no seed is made.
    const alone = await v.submit('/settings/two-factor', {}, '/settings/two-factor/start')
    assert.equal(alone.status, 422)
    assert.match(alone.text, /Confirm it is you first/)
    const wrongPassword = await v.submit('/settings/two-factor', { ownerPassword: 'not the password' }, '/settings/two-factor/owner')
    assert.equal(wrongPassword.status, 422)
    assert.match(wrongPassword.text, /This is not your current password/)
    assert.equal((await v.submit('/settings/two-factor', {}, '/settings/two-factor/start')).status, 422)
    assert.deepEqual(await seeds(), [])
    assert.equal((await v.submit('/settings/two-factor', { ownerPassword: 'correct horse battery' }, '/settings/two-factor/owner')).status, 303)
    assert.equal((await v.submit('/settings/two-factor', {}, '/settings/two-factor/start')).status, 303)
    const shown = await v.get('/settings/two-factor')
    assert.match(shown.text, /<div class="qr" role="img" aria-label="[^"]+"><svg/)
    const wrong = await v.submit('/settings/two-factor', { code: '000000' }, '/settings/two-factor/confirm')
    assert.equal(wrong.status, 422)
    assert.match(wrong.text, /This code is not right/)
    const { recoveryCodes, page } = await enrol(v)
    assert.equal(recoveryCodes.length, 10)
    assert.equal(new Set(recoveryCodes).size, 10)
    assert.match(page.text, /shown only now/)
    assert.match((await v.get('/settings/two-factor')).text, /Two-factor codes are <strong>on<\/strong>.*10 unused recovery codes/s)
  })

  it('takes the confirmation to turn codes on: once spent, or gone, a seed begun before is not turned on', async () => {
    const { v, email } = await signedUp(t)
    const user = (await usersRepository.findByEmail(t.ctx.db, email))!
    assert.equal((await v.submit('/settings/two-factor', { ownerPassword: 'correct horse battery' }, '/settings/two-factor/owner')).status, 303)
    assert.equal((await v.submit('/settings/two-factor', {}, '/settings/two-factor/start')).status, 303)
    const secret = secretOn((await v.get('/settings/two-factor')).text)
    await t.ctx.db.deleteFrom('passkey_challenges').where('purpose', '=', 'owner-confirmed').execute()
    // The page no longer shows the seed: it asks for the password again.
    const asked = await v.get('/settings/two-factor')
    assert.doesNotMatch(asked.text, /class="secret"/)
    const late = await v.post('/settings/two-factor/confirm', { _csrf: csrfOf(asked.text), code: codeFor(secret) })
    assert.equal(late.status, 422)
    assert.match(late.text, /Confirm it is you first/)
    assert.equal(await twoFactor.required(t.ctx, user.id), false)
  })

  it('turns codes on for an account without a password after its passkey confirms', async () => {
    const { v, email } = await signedUp(t)
    const user = (await usersRepository.findByEmail(t.ctx.db, email))!
    const passkey = await addSoftPasskey(t, user.id)
    await accounts.dropPassword(t.ctx.db, user)
    const page = await v.get('/settings/two-factor')
    assert.match(page.text, /Confirm with your passkey/)
    const csrf = csrfOf(page.text)
    const foreign = await v.post('/settings/two-factor/owner', { _csrf: csrf, credential: await passkeyAnswer(v, csrf, new SoftPasskey(), t.url) })
    assert.equal(foreign.status, 422)
    assert.equal((await v.submit('/settings/two-factor', {}, '/settings/two-factor/start')).status, 422)
    const own = await v.post('/settings/two-factor/owner', { _csrf: csrf, credential: await passkeyAnswer(v, csrf, passkey, t.url) })
    assert.equal(own.status, 303)
    await enrol(v, null)
    assert.equal(await twoFactor.required(t.ctx, user.id), true)
  })

  it('keeps the seed sealed and recovery codes as digests', async () => {
    const { v, email } = await signedUp(t)
    const { secret, recoveryCodes } = await enrol(v)
    const user = await t.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    const rows = JSON.stringify([
      await t.ctx.db.selectFrom('totp_authenticators').selectAll().where('user_id', '=', user.id).execute(),
      await t.ctx.db.selectFrom('recovery_codes').selectAll().where('user_id', '=', user.id).execute(),
    ])
    assert.ok(!rows.includes(secret))
    for (const c of recoveryCodes) assert.ok(!rows.includes(c) && !rows.includes(c.replace('-', '')))
  })

  it('asks for the code after the password; the session is not signed in before it', async () => {
    const { v, email } = await signedUp(t)
    const { secret } = await enrol(v)
    const other = Visitor.of(t)
    const first = await other.submit('/login', { email, password: 'correct horse battery', next: '/settings' })
    assert.equal(first.location, '/login/code')
    const settings = await other.get('/settings')
    assert.equal(settings.status, 303)
    assert.match(settings.location ?? '', /^\/login\?next=/)
    const step = await other.get('/login/code')
    assert.equal(step.status, 200)
    assert.match(step.text, /autocomplete="one-time-code"/)
    const wrong = await other.submit('/login/code', { code: '123456' })
    assert.equal(wrong.status, 401)
    const right = await other.submit('/login/code', { code: codeFor(secret, 1) })
    assert.equal(right.status, 303)
    assert.equal(right.location, '/settings')
    assert.equal((await other.get('/settings')).status, 200)
  })

  it('takes a code once within its window', async () => {
    const { v, email } = await signedUp(t)
    const { secret } = await enrol(v)
    // The enrolment used the current step; the next one signs in once.
    const code = codeFor(secret, 1)
    assert.equal((await signInWithCode(Visitor.of(t), email, code)).status, 303)
    const again = await signInWithCode(Visitor.of(t), email, code)
    assert.equal(again.status, 401)
    // The enrolment's own code (an earlier step) is spent too.
    assert.equal((await signInWithCode(Visitor.of(t), email, codeFor(secret))).status, 401)
  })

  it('takes a recovery code once, in any case and without its dash', async () => {
    const { v, email } = await signedUp(t)
    const { recoveryCodes } = await enrol(v)
    const [first, second] = recoveryCodes
    assert.equal((await signInWithCode(Visitor.of(t), email, first)).status, 303)
    assert.equal((await signInWithCode(Visitor.of(t), email, first)).status, 401)
    assert.equal((await signInWithCode(Visitor.of(t), email, second.replace('-', '').toUpperCase())).status, 303)
    assert.match((await v.get('/settings/two-factor')).text, /8 unused recovery codes/)
  })

  it('turns off only with a code, and signs out the other browsers', async () => {
    const { v, email } = await signedUp(t)
    const { secret, recoveryCodes } = await enrol(v)
    const elsewhere = Visitor.of(t)
    assert.equal((await signInWithCode(elsewhere, email, recoveryCodes[0])).status, 303)
    const refused = await v.submit('/settings/two-factor', { offCode: '000000' }, '/settings/two-factor/disable')
    assert.equal(refused.status, 422)
    const on = (await v.get('/settings/two-factor')).text
    assert.match(on, /codes are <strong>on<\/strong>/)
    const ids = [...on.matchAll(/ id="([^"]+)"/g)].map((m) => m[1])
    assert.equal(new Set(ids).size, ids.length, 'every field of the page has its own id')
    const done = await v.submit('/settings/two-factor', { offCode: codeFor(secret, 1) }, '/settings/two-factor/disable')
    assert.equal(done.status, 303)
    const page = await v.get('/settings/two-factor')
    assert.match(page.text, /Two-factor codes are off. Other browsers signed in to your account were signed out./)
    const gone = await elsewhere.get('/settings')
    assert.equal(gone.status, 303, 'the other browser is signed out')
    await Visitor.of(t).signIn(email)
  })

  it('makes new recovery codes given a code; the old ones stop working', async () => {
    const { v, email } = await signedUp(t)
    const { recoveryCodes } = await enrol(v)
    const renewed = await v.submit('/settings/two-factor', { code: recoveryCodes[0] }, '/settings/two-factor/recovery-codes')
    assert.equal(renewed.status, 200)
    const fresh = [...renewed.text.matchAll(/<li><code>([a-z0-9-]{11})<\/code><\/li>/g)].map((m) => m[1])
    assert.equal(fresh.length, 10)
    assert.equal((await signInWithCode(Visitor.of(t), email, recoveryCodes[1])).status, 401)
    assert.equal((await signInWithCode(Visitor.of(t), email, fresh[0])).status, 303)
  })

  it('puts no seed or recovery code in logs, the account download or a page export', async () => {
    const { v, email } = await signedUp(t)
    const { secret, recoveryCodes } = await enrol(v)
    await signInWithCode(Visitor.of(t), email, recoveryCodes[0])
    const user = await t.ctx.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow()
    const profile = await makeProfile(t, user as any)
    const cookie = [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; ')
    const account = unzipSync(new Uint8Array(await (await fetch(`${t.url}/settings/export`, { headers: { cookie } })).arrayBuffer()))
    const pageExport = unzipSync(new Uint8Array(await (await fetch(`${t.url}/my-links/${profile.id}/export`, { headers: { cookie } })).arrayBuffer()))
    const texts = [...Object.values(account), ...Object.values(pageExport)].map((b) => Buffer.from(b).toString('latin1'))
    assert.ok(texts.length > 1)
    const secretsSeen = (hay: string) => [secret, ...recoveryCodes, ...recoveryCodes.map((c) => c.replace('-', ''))].filter((s) => hay.includes(s))
    for (const text of texts) assert.deepEqual(secretsSeen(text), [])
    assert.deepEqual(secretsSeen(lines.join('')), [])
    assert.ok(lines.length > 0)
  })
})

describe(`two-factor codes are counted like passwords (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_SIGN_IN_PER_10_MINUTES: '5' })
  })
  after(() => t.close())

  it('refuses wrong codes, counts them, and waits (429) past the limit', async () => {
    const v = Visitor.of(t)
    const email = freshEmail()
    await v.register({ email })
    const { secret } = await enrol(v)
    useHandClock(t)
    const other = Visitor.of(t)
    // The password itself is one attempt; four wrong codes fill the limit of five.
    assert.equal((await other.submit('/login', { email, password: 'correct horse battery' })).location, '/login/code')
    for (let i = 0; i < 4; i++) assert.equal((await other.submit('/login/code', { code: '000000' })).status, 401)
    const waiting = await other.submit('/login/code', { code: codeFor(secret, 1) })
    assert.equal(waiting.status, 429)
    assert.ok(Number(waiting.headers.get('retry-after')) > 0)
  })
})
