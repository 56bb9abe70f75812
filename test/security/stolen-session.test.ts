import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { usersRepository } from '../../src/store/users.ts'
import { makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, freshEmail, registeredVisitor, Visitor } from '../helpers/dashboard.ts'
import { startSmtpSink } from '../helpers/smtp-sink.ts'

const PASSWORD = 'correct horse battery'

/** A mail's plain text, quoted-printable undone (soft breaks and =XX escapes). */
const bodyOf = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/\r\n/g, '\n')

/** The confirmation link of a mail. */
const linkIn = (raw: string) => /http:\/\/127\.0\.0\.1:\d+\/settings\/email\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(bodyOf(raw))?.[0]

/** A second browser signed in to the same account: the thief's, or the owner's other device. */
async function signedInElsewhere(t: TestApp, email: string) {
  const v = Visitor.of(t)
  await v.signIn(email)
  assert.equal((await v.get('/settings')).status, 200)
  return v
}

/**
 * The confirmation link of the first mail after the `after`th that carries one: a notice of an
 * earlier test (mailed without waiting) may arrive in between.
 */
async function confirmLinkAfter(sink: Awaited<ReturnType<typeof startSmtpSink>>, after: number): Promise<string> {
  for (let n = after + 1; n <= after + 5; n++) {
    const link = linkIn((await mailNumber(sink, n)).raw)
    if (link) return link
  }
  throw new Error('no confirmation link in five mails')
}

/** The `n`th mail the sink got, or a failure after 15 s: a mail that never comes must not hang the suite. */
function mailNumber(sink: Awaited<ReturnType<typeof startSmtpSink>>, n: number) {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`mail ${n} never arrived`)), 15_000)
  })
  return Promise.race([sink.waitFor(n), late]).finally(() => clearTimeout(timer))
}

const pathOf = (link: string) => {
  const url = new URL(link)
  return url.pathname + url.search
}

describe(`a stolen dashboard session cannot take the account (${STORE})`, () => {
  let t: TestApp
  let sink: Awaited<ReturnType<typeof startSmtpSink>>
  before(async () => {
    sink = await startSmtpSink()
    t = await startApp({ SMTP_URL: sink.url, MAIL_FROM: 'Slotline <no-reply@127.0.0.1>' })
  })
  after(async () => {
    await t.close()
    await sink.close()
  })

  describe('POST /settings/email', () => {
    it('refuses a wrong or missing current password beside the field, mails nothing and changes nothing', async () => {
      const { v, user } = await registeredVisitor(t)
      const before = sink.messages.length
      for (const password of ['not the password', '']) {
        const res = await v.submit('/settings', { newEmail: freshEmail(), emailCurrentPassword: password }, '/settings/email')
        assert.equal(res.status, 422)
        assert.match(res.text, /id="f-emailCurrentPassword-error">This is not your current password\./)
        assert.match(res.text, /aria-invalid="true" aria-describedby="f-emailCurrentPassword-error"/)
      }
      assert.equal((await usersRepository.findById(t.ctx.db, user.id))?.email, user.email)
      assert.equal(await t.ctx.db.selectFrom('email_changes').select('id').where('user_id', '=', user.id).executeTakeFirst(), undefined)
      await new Promise((r) => setTimeout(r, 200))
      assert.equal(sink.messages.length, before)
    })

    it('does not tell whether an address is taken to whoever lacks the password', async () => {
      const { v } = await registeredVisitor(t)
      const { user: other } = await registeredVisitor(t)
      const res = await v.submit('/settings', { newEmail: other.email, emailCurrentPassword: 'not the password' }, '/settings/email')
      assert.equal(res.status, 422)
      assert.doesNotMatch(res.text, /cannot be used/)
      const right = await v.submit('/settings', { newEmail: other.email, emailCurrentPassword: PASSWORD }, '/settings/email')
      assert.equal(right.status, 422)
      assert.match(right.text, /id="f-newEmail-error">This e-mail cannot be used\./)
    })

    it('keeps the e-mail until the link mailed to the new address is followed, then tells the old address and signs out every other browser', async () => {
      const { v, user } = await registeredVisitor(t)
      const elsewhere = await signedInElsewhere(t, user.email)
      const token = await makeToken(t, user)
      const newEmail = freshEmail()
      const before = sink.messages.length

      const asked = await v.submit('/settings', { newEmail, emailCurrentPassword: PASSWORD }, '/settings/email')
      assert.equal(asked.status, 303)
      const page = await v.get('/settings')
      assert.match(page.text, new RegExp(`We mailed a link to ${newEmail.replaceAll('.', '\\.')}`))
      assert.match(page.text, /Waiting for you to open the link/)
      const mail = await mailNumber(sink, before + 1)
      assert.deepEqual(mail.to, [newEmail])
      const link = linkIn(mail.raw)
      assert.ok(link, 'the mail carries a confirmation link')

      // Nothing has changed yet: the old e-mail still signs in, the other browser is still in.
      assert.equal((await usersRepository.findById(t.ctx.db, user.id))?.email, user.email)
      await Visitor.of(t).signIn(user.email)
      assert.equal((await elsewhere.get('/settings')).status, 200)
      // Only a hash of the token is stored.
      const secret = new URL(link).searchParams.get('token')!
      const rows = await t.ctx.db.selectFrom('email_changes').selectAll().where('user_id', '=', user.id).execute()
      assert.equal(rows.length, 1)
      assert.ok(!JSON.stringify(rows).includes(secret))

      // Opening the link changes nothing (mail scanners open links); its button does.
      const shown = await v.get(pathOf(link))
      assert.equal(shown.status, 200)
      assert.match(shown.text, /Confirm your new e-mail/)
      assert.equal((await usersRepository.findById(t.ctx.db, user.id))?.email, user.email)
      const done = await v.post('/settings/email/confirm', { _csrf: csrfOf(shown.text), token: secret })
      assert.equal(done.status, 303)
      assert.equal(done.location, '/settings')
      const after = await v.get('/settings')
      assert.equal(after.status, 200, 'the browser that confirmed stays signed in')
      assert.match(after.text, /Your e-mail is now/)
      assert.match(after.text, /Every other browser signed in to your account was signed out/)
      assert.equal((await usersRepository.findById(t.ctx.db, user.id))?.email, newEmail)

      // The other browser's next request goes to sign-in.
      const kicked = await elsewhere.get('/settings')
      assert.equal(kicked.status, 303)
      assert.match(kicked.location ?? '', /^\/login/)
      // The old address is told, naming the new one.
      const notice = await mailNumber(sink, before + 2)
      assert.deepEqual(notice.to, [user.email])
      assert.match(bodyOf(notice.raw), new RegExp(`changed from ${user.email.replaceAll('.', '\\.')} to ${newEmail.replaceAll('.', '\\.')}`))
      // The new e-mail signs in, the old one no longer does.
      await Visitor.of(t).signIn(newEmail)
      assert.equal((await Visitor.of(t).submit('/login', { email: user.email, password: PASSWORD })).status, 401)
      // Personal tokens are separate credentials listed under API tokens: they keep working.
      assert.equal((await t.request('GET', '/v1/me', { token })).status, 200)

      // The link works once.
      const again = await Visitor.of(t).get(pathOf(link))
      assert.equal(again.status, 410)
    })

    it('signs out every browser when the link is followed in a browser not signed in', async () => {
      const { v, user } = await registeredVisitor(t)
      const newEmail = freshEmail()
      const before = sink.messages.length
      await v.submit('/settings', { newEmail, emailCurrentPassword: PASSWORD }, '/settings/email')
      const link = await confirmLinkAfter(sink, before)
      const phone = Visitor.of(t)
      const shown = await phone.get(pathOf(link))
      const done = await phone.post('/settings/email/confirm', { _csrf: csrfOf(shown.text), token: new URL(link).searchParams.get('token')! })
      assert.equal(done.status, 200)
      assert.match(done.text, /Your e-mail is changed/)
      assert.equal((await v.get('/settings')).status, 303)
      assert.equal((await usersRepository.findById(t.ctx.db, user.id))?.email, newEmail)
    })

    it('refuses an expired link, and a link replaced by a newer request', async () => {
      const { v, user } = await registeredVisitor(t)
      let before = sink.messages.length
      await v.submit('/settings', { newEmail: freshEmail(), emailCurrentPassword: PASSWORD }, '/settings/email')
      const first = await confirmLinkAfter(sink, before)
      before = sink.messages.length
      await v.submit('/settings', { newEmail: freshEmail(), emailCurrentPassword: PASSWORD }, '/settings/email')
      const second = await confirmLinkAfter(sink, before)
      assert.equal((await v.get(pathOf(first))).status, 410, 'a newer request replaces the older link')
      await t.ctx.db
        .updateTable('email_changes')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('user_id', '=', user.id)
        .execute()
      const shown = await v.get(pathOf(second))
      assert.equal(shown.status, 410)
      const forced = await v.post('/settings/email/confirm', {
        _csrf: csrfOf((await v.get('/settings')).text),
        token: new URL(second).searchParams.get('token')!,
      })
      assert.equal(forced.status, 410)
      assert.equal((await usersRepository.findById(t.ctx.db, user.id))?.email, user.email)
    })

    it('drops a waiting change when the password is changed', async () => {
      const { v, user } = await registeredVisitor(t)
      const before = sink.messages.length
      await v.submit('/settings', { newEmail: freshEmail(), emailCurrentPassword: PASSWORD }, '/settings/email')
      const link = await confirmLinkAfter(sink, before)
      const changed = await v.submit('/settings', { currentPassword: PASSWORD, newPassword: 'a new password here' }, '/settings/password')
      assert.equal(changed.status, 303)
      assert.equal((await v.get(pathOf(link))).status, 410)
      assert.equal((await usersRepository.findById(t.ctx.db, user.id))?.email, user.email)
    })
  })

  describe('POST /settings/password', () => {
    it('signs out every other browser, says so, and leaves tokens working', async () => {
      const { v, user } = await registeredVisitor(t)
      const elsewhere = await signedInElsewhere(t, user.email)
      const token = await makeToken(t, user)
      const res = await v.submit('/settings', { currentPassword: PASSWORD, newPassword: 'another long password' }, '/settings/password')
      assert.equal(res.status, 303)
      const page = await v.get('/settings')
      assert.equal(page.status, 200)
      assert.match(page.text, /Other browsers signed in to your account were signed out/)
      const kicked = await elsewhere.get('/settings')
      assert.equal(kicked.status, 303)
      assert.match(kicked.location ?? '', /^\/login/)
      assert.equal((await t.request('GET', '/v1/me', { token })).status, 200)
    })
  })

  describe('POST /settings/delete', () => {
    it('needs the current password: a stolen session that only knows the e-mail deletes nothing', async () => {
      const { v, user } = await registeredVisitor(t)
      const wrong = await v.submit('/settings/delete', { confirmEmail: user.email, currentPassword: 'a guess' })
      assert.equal(wrong.status, 422)
      assert.match(wrong.text, /This is not your current password/)
      assert.ok(await usersRepository.findById(t.ctx.db, user.id))
      const right = await v.submit('/settings/delete', { currentPassword: PASSWORD })
      assert.equal(right.status, 200)
      assert.equal(await usersRepository.findById(t.ctx.db, user.id), undefined)
    })
  })
})

describe(`password checks of account changes share the sign-in limits (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_SIGN_IN_PER_10_MINUTES: '2' })
  })
  after(() => t.close())

  it('answers 429 once the guesses at the password of an e-mail change or a deletion pass the limit', async () => {
    const { v, user } = await registeredVisitor(t)
    // Registration does not count as a sign-in; two guesses are allowed, the third waits.
    assert.equal((await v.submit('/settings', { newEmail: freshEmail(), emailCurrentPassword: 'guess one' }, '/settings/email')).status, 422)
    assert.equal((await v.submit('/settings/delete', { currentPassword: 'guess two' })).status, 422)
    const limited = await v.submit('/settings/delete', { currentPassword: PASSWORD })
    assert.equal(limited.status, 429)
    assert.ok(limited.headers.get('retry-after'))
    assert.match(limited.text, /Too many attempts/)
    assert.ok(await usersRepository.findById(t.ctx.db, user.id))
  })
})

describe(`without outgoing mail (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('changes the e-mail at once given the current password, and signs out every other browser', async () => {
    const { v, user } = await registeredVisitor(t)
    const elsewhere = await signedInElsewhere(t, user.email)
    const newEmail = freshEmail()
    const refused = await v.submit('/settings', { newEmail, emailCurrentPassword: 'not it' }, '/settings/email')
    assert.equal(refused.status, 422)
    const res = await v.submit('/settings', { newEmail, emailCurrentPassword: PASSWORD }, '/settings/email')
    assert.equal(res.status, 303)
    const page = await v.get('/settings')
    assert.equal(page.status, 200)
    assert.match(page.text, /Your e-mail is now/)
    assert.match(page.text, /Other browsers signed in to your account were signed out/)
    assert.equal((await usersRepository.findById(t.ctx.db, user.id))?.email, newEmail)
    assert.equal((await elsewhere.get('/settings')).status, 303)
  })
})
