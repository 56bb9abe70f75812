import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, Visitor } from '../helpers/dashboard.ts'
import { startSmtpSink } from '../helpers/smtp-sink.ts'

/** The reset link of a mail, quoted-printable soft breaks undone. */
const linkIn = (raw: string) =>
  /(http:\/\/127\.0\.0\.1:\d+\/login\/reset\?token=3D[A-Za-z0-9_-]{43}|http:\/\/127\.0\.0\.1:\d+\/login\/reset\?token=[A-Za-z0-9_-]{43})/
    .exec(raw.replace(/=\r?\n/g, ''))?.[1]
    ?.replace('token=3D', 'token=')

describe(`password reset by mail (${STORE})`, () => {
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

  async function ask(email: string) {
    const v = Visitor.of(t)
    return v.submit('/login/forgot', { email })
  }

  it('answers the same whether or not the address has an account, and mails only an account', async () => {
    const user = await makeUser(t)
    const before = sink.messages.length
    const known = await ask(user.email)
    const unknown = await ask('nobody@example.test')
    assert.equal(known.status, unknown.status)
    assert.equal(known.text.replace(user.email, 'X'), unknown.text.replace('nobody@example.test', 'X'))
    const mail = await sink.waitFor(before + 1)
    assert.deepEqual(mail.to, [user.email])
    assert.ok(linkIn(mail.raw))
    assert.ok(!sink.messages.some((m) => m.to.includes('nobody@example.test')))
  })

  it('sets a new password once through the link, signs out every session, and stores only a hash', async () => {
    const user = await makeUser(t)
    const signedIn = Visitor.of(t)
    await signedIn.signIn(user.email)
    assert.equal((await signedIn.get('/settings')).status, 200)
    const before = sink.messages.length
    await ask(user.email)
    const link = linkIn((await sink.waitFor(before + 1)).raw)!
    const token = new URL(link).searchParams.get('token')!
    const rows = await t.ctx.db.selectFrom('password_resets').selectAll().where('user_id', '=', user.id).execute()
    assert.equal(rows.length, 1)
    assert.notEqual(rows[0].token_hash, token)
    assert.ok(!JSON.stringify(rows).includes(token))

    const v = Visitor.of(t)
    const form = await v.get(new URL(link).pathname + new URL(link).search)
    assert.equal(form.status, 200)
    const short = await v.post('/login/reset', { _csrf: csrfOf(form.text), token, newPassword: 'short' })
    assert.equal(short.status, 422, 'a refused password does not use the link up')
    const done = await v.post('/login/reset', { _csrf: csrfOf(form.text), token, newPassword: 'a brand new password' })
    assert.equal(done.status, 303)
    assert.equal(done.location, '/login')
    assert.equal((await signedIn.get('/settings')).status, 303, 'the old session is signed out')
    await Visitor.of(t).signIn(user.email, 'a brand new password')
    const again = await v.post('/login/reset', { _csrf: csrfOf(form.text), token, newPassword: 'another new password' })
    assert.equal(again.status, 410, 'single use')
  })

  it('refuses an expired link', async () => {
    const user = await makeUser(t)
    const before = sink.messages.length
    await ask(user.email)
    const token = new URL(linkIn((await sink.waitFor(before + 1)).raw)!).searchParams.get('token')!
    await t.ctx.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute()
    assert.equal((await Visitor.of(t).get(`/login/reset?token=${token}`)).status, 410)
  })
})
