import assert from 'node:assert/strict'
import { createHmac, randomBytes } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import { account } from '../../src/core/use-cases.ts'
import { usersRepository } from '../../src/store/users.ts'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, Visitor } from '../helpers/dashboard.ts'
import { type Person, startProvider, type TestProvider, throughProvider } from '../helpers/oidc-provider.ts'
import { addSoftPasskey } from '../helpers/passkeys.ts'
import { codeFor, enrol } from '../helpers/two-factor.ts'

// Single sign-on against real OpenID Connect providers (oidc-provider) on 127.0.0.1: accounts
// are found by issuer and subject, made only where the settings allow, and never found by e-mail.
const CLIENT_SECRET = 'client-secret-that-must-never-leak-0123456789'
const SSO_ENV = {
  OIDC_CLIENT_ID: 'slotline',
  OIDC_CLIENT_SECRET: CLIENT_SECRET,
  OIDC_BUTTON_TEXT: 'Sign in with Example ID',
  OIDC_ALLOWED_DOMAINS: 'example.test',
  OIDC_AUTO_REGISTER: 'on',
}

/** The app's log lines, at debug level, to look for the client secret in. */
function captured() {
  const stream = new PassThrough()
  const lines: string[] = []
  stream.on('data', (chunk) => lines.push(String(chunk)))
  return { stream, text: () => lines.join('') }
}

async function providersAndApp(env: Record<string, string> = {}) {
  const s = {} as { t: TestApp; a: TestProvider; b: TestProvider; logs: ReturnType<typeof captured> }
  const redirectUri = () => `${s.t.url}/login/sso/callback`
  s.a = await startProvider({ clientId: 'slotline', clientSecret: CLIENT_SECRET, redirectUri })
  s.b = await startProvider({ clientId: 'slotline', clientSecret: CLIENT_SECRET, redirectUri })
  s.logs = captured()
  s.t = await startApp({ ...SSO_ENV, OIDC_ISSUER_URL: s.a.issuer, LOG_LEVEL: 'debug', ...env }, { logTo: s.logs.stream })
  return s
}

/** One visitor's sign-in through the provider as `person`; answers the app's last response. */
async function ssoSignIn(t: TestApp, provider: TestProvider, person: Person, v = Visitor.of(t)) {
  provider.person = person
  const res = await throughProvider(v, await v.get('/login/sso'))
  return { v, res }
}

/** Confirms the owner at `provider`, as `person`, before a way to sign in is added on `page`; answers the way back. */
async function confirmToAddAt(v: Visitor, provider: TestProvider, person: Person, page: string) {
  const started = await v.submit(page, {}, `${page}/owner`)
  assert.equal(new URL(started.location!).origin, provider.issuer)
  provider.person = person
  const back = await throughProvider(v, started)
  assert.equal(back.location, `${page}/owner/single-sign-on`)
  return v.get(back.location!)
}

const users = (t: TestApp) => t.ctx.db.selectFrom('users').select(['id', 'email']).execute()
const identities = (t: TestApp) => t.ctx.db.selectFrom('sso_identities').select(['user_id', 'issuer', 'subject']).orderBy('id').execute()

/** Points the running app at another provider, as a restart with another OIDC_ISSUER_URL would. */
function useIssuer(t: TestApp, provider: TestProvider) {
  t.ctx.config.singleSignOn = { ...t.ctx.config.singleSignOn!, issuer: provider.issuer }
}

describe(`single sign-on with OpenID Connect (${STORE})`, () => {
  let s: Awaited<ReturnType<typeof providersAndApp>>
  before(async () => {
    s = await providersAndApp()
  })
  after(async () => {
    await s.t.close()
    await s.a.close()
    await s.b.close()
  })

  it('shows the button beside the password form, as a plain link', async () => {
    const page = await Visitor.of(s.t).get('/login')
    assert.equal(page.status, 200)
    assert.match(page.text, /<a class="button" href="\/login\/sso">Sign in with Example ID<\/a>/)
    assert.match(page.text, /name="password"/)
  })

  it('makes an account for a verified e-mail at an allowed domain, and finds it again by subject', async () => {
    const person = { sub: 'alice-at-a', email: 'alice@example.test', email_verified: true, name: 'Alice', roles: ['admin'], operator: true }
    const { v, res } = await ssoSignIn(s.t, s.a, person)
    assert.equal(res.status, 303, res.text.slice(0, 400))
    assert.equal((await v.get('/my-links')).status, 200)
    const alice = (await users(s.t)).find((u) => u.email === 'alice@example.test')
    assert.ok(alice)
    assert.deepEqual(
      (await identities(s.t)).filter((i) => i.user_id === alice.id),
      [{ user_id: alice.id, issuer: s.a.issuer, subject: 'alice-at-a' }],
    )
    // Again from a fresh browser, with another e-mail at the provider: the subject decides.
    const before = (await users(s.t)).length
    const again = await ssoSignIn(s.t, s.a, { ...person, email: 'alice.renamed@example.test' })
    assert.equal(again.res.status, 303)
    const settings = await again.v.get('/settings')
    assert.match(settings.text, /alice@example\.test/)
    assert.equal((await users(s.t)).length, before)
  })

  it('refuses an e-mail domain that is not allowed, and an e-mail the provider has not confirmed', async () => {
    const before = (await users(s.t)).length
    const other = await ssoSignIn(s.t, s.a, { sub: 'mallory', email: 'mallory@elsewhere.test', email_verified: true })
    assert.equal(other.res.status, 403)
    assert.match(other.res.text, /only for e-mail addresses at example\.test/)
    assert.equal((await other.v.get('/my-links')).status, 303, 'not signed in')
    const unconfirmed = await ssoSignIn(s.t, s.a, { sub: 'uma', email: 'uma@example.test', email_verified: false })
    assert.equal(unconfirmed.res.status, 403)
    assert.match(unconfirmed.res.text, /has not confirmed uma@example\.test/)
    assert.equal((await users(s.t)).length, before)
  })

  it('never opens an account by e-mail: the same e-mail at a second issuer stays a second account', async () => {
    await ssoSignIn(s.t, s.a, { sub: 'carol-at-a', email: 'carol@example.test', email_verified: true })
    useIssuer(s.t, s.b)
    try {
      const carolAtB = { sub: 'carol-at-b', email: 'carol@example.test', email_verified: true }
      const refused = await ssoSignIn(s.t, s.b, carolAtB)
      assert.equal(refused.res.status, 403)
      assert.match(refused.res.text, /already uses carol@example\.test, but it is not linked/)
      assert.equal((await refused.v.get('/my-links')).status, 303, 'the e-mail opened nothing')

      // Another account links the second issuer's person after signing in to it with its password.
      const dave = await makeUser(s.t, { email: 'dave@example.test' })
      const v = Visitor.of(s.t)
      await v.signIn(dave.email)
      s.b.person = carolAtB
      const linkPage = await v.get('/settings/single-sign-on')
      assert.match(linkPage.text, /Link single sign-on/)
      // The link form's answer redirects to the provider: the page's form-action allows its origin.
      assert.match(linkPage.headers.get('content-security-policy') ?? '', new RegExp(`form-action 'self' ${s.b.issuer}`))
      const linked = await throughProvider(v, await v.post('/settings/single-sign-on/link', { _csrf: csrfOf(linkPage.text) }))
      assert.equal(linked.status, 303)
      assert.match((await v.get('/settings/single-sign-on')).text, /Single sign-on is linked \(carol@example\.test\)/)

      const viaB = await ssoSignIn(s.t, s.b, carolAtB)
      assert.equal(viaB.res.status, 303)
      assert.match((await viaB.v.get('/settings')).text, /dave@example\.test/)
    } finally {
      useIssuer(s.t, s.a)
    }
    const viaA = await ssoSignIn(s.t, s.a, { sub: 'carol-at-a', email: 'carol@example.test', email_verified: true })
    assert.match((await viaA.v.get('/settings')).text, /carol@example\.test/)
    const carol = (await users(s.t)).find((u) => u.email === 'carol@example.test')!
    const dave = (await users(s.t)).find((u) => u.email === 'dave@example.test')!
    const rows = (await identities(s.t)).filter((i) => i.subject.startsWith('carol'))
    assert.deepEqual(rows, [
      { user_id: carol.id, issuer: s.a.issuer, subject: 'carol-at-a' },
      { user_id: dave.id, issuer: s.b.issuer, subject: 'carol-at-b' },
    ])
  })

  it('asks an account with two-factor codes for a code after the provider', async () => {
    const erin = { sub: 'erin', email: 'erin@example.test', email_verified: true }
    const { v } = await ssoSignIn(s.t, s.a, erin)
    assert.equal((await confirmToAddAt(v, s.a, erin, '/settings/two-factor')).status, 303)
    const { secret } = await enrol(v, null)
    const again = await ssoSignIn(s.t, s.a, { sub: 'erin', email: 'erin@example.test', email_verified: true })
    assert.equal(again.res.status, 303)
    assert.equal(again.res.location, '/login/code')
    assert.equal((await again.v.get('/my-links')).status, 303, 'not signed in before the code')
    const done = await again.v.submit('/login/code', { code: codeFor(secret, 1) })
    assert.equal(done.status, 303)
    assert.equal((await again.v.get('/my-links')).status, 200)
  })

  it('asks an account with a passkey for it after the provider', async () => {
    const person = { sub: 'ines', email: 'ines@example.test', email_verified: true }
    await ssoSignIn(s.t, s.a, person)
    const ines = (await users(s.t)).find((u) => u.email === 'ines@example.test')!
    await addSoftPasskey(s.t, ines.id)
    const again = await ssoSignIn(s.t, s.a, person)
    assert.equal(again.res.location, '/login/code')
    assert.match((await again.v.get('/login/code')).text, /Sign in with your passkey/)
    assert.equal((await again.v.get('/my-links')).status, 303, 'not signed in before the passkey')
  })

  it('refuses an answer that was not asked for by this browser', async () => {
    const v = Visitor.of(s.t)
    const none = await v.get('/login/sso/callback?code=x&state=y')
    assert.equal(none.status, 400)
    s.a.person = { sub: 'frank', email: 'frank@example.test', email_verified: true }
    const started = await v.get('/login/sso')
    // Another browser takes the answer meant for this one: its session holds no matching state.
    const res = await throughProvider(Visitor.of(s.t), started)
    assert.equal(res.status, 400)
    const tampered = await v.get(`/login/sso/callback?code=x&state=not-the-state&iss=${encodeURIComponent(s.a.issuer)}`)
    assert.equal(tampered.status, 401)
  })

  it('keeps the client secret out of logs, pages and the account download', async () => {
    const { v } = await ssoSignIn(s.t, s.a, { sub: 'gina', email: 'gina@example.test', email_verified: true })
    const download = await v.get('/settings/export')
    assert.equal(download.status, 200)
    for (const path of ['/settings', '/settings/single-sign-on', '/login']) assert.ok(!(await v.get(path)).text.includes(CLIENT_SECRET), path)
    assert.ok(!download.text.includes(CLIENT_SECRET))
    assert.ok(s.logs.text().includes('/login/sso/callback'), 'the logs were captured')
    assert.ok(!s.logs.text().includes(CLIENT_SECRET), 'the client secret is in the logs')
  })
})

describe(`an account made by single sign-on confirms changes at its provider (${STORE})`, () => {
  let s: Awaited<ReturnType<typeof providersAndApp>>
  before(async () => {
    s = await providersAndApp()
  })
  after(async () => {
    await s.t.close()
    await s.a.close()
    await s.b.close()
  })

  /** A new account made by signing in through the provider; answers its browser and row. */
  async function ssoAccount(sub: string) {
    const person = { sub, email: `${sub}@example.test`, email_verified: true }
    const { v } = await ssoSignIn(s.t, s.a, person)
    const user = (await usersRepository.findByEmail(s.t.ctx.db, person.email))!
    return { v, user, person }
  }

  /** Posts a form of `page` whose answer goes to the provider; answers the app's answer to the callback. */
  async function throughProviderAs(v: Visitor, person: Person, page: string, action: string, fields: Record<string, string> = {}) {
    const started = await v.submit(page, fields, action)
    assert.equal(started.status, 303, started.text.slice(0, 300))
    const to = new URL(started.location!)
    assert.equal(to.origin, s.a.issuer)
    // The provider is asked to sign the person in anew, and to say when it did.
    assert.equal(to.searchParams.get('prompt'), 'login')
    assert.equal(to.searchParams.get('max_age'), '300')
    s.a.person = person
    return throughProvider(v, started)
  }

  it('has no password: the e-mail form asks for none, and no password signs in', async () => {
    const { v, user } = await ssoAccount('jo')
    assert.equal(user.passwordHash, 'none')
    const page = await v.get('/settings')
    assert.doesNotMatch(page.text, /name="emailCurrentPassword"/)
    assert.match(page.text, /signing in again at your single sign-on provider/)
    // The e-mail form's answer redirects to the provider: the page's form-action allows its origin.
    assert.match(page.headers.get('content-security-policy') ?? '', new RegExp(`form-action 'self' ${s.a.issuer}`))
    assert.equal((await Visitor.of(s.t).submit('/login', { email: user.email, password: 'none' })).status, 401)
  })

  it('changes its e-mail after signing in again at the provider; someone else there changes nothing', async () => {
    const { v, user, person } = await ssoAccount('kim')
    const stranger = await ssoAccount('lee')
    const refused = await throughProviderAs(v, stranger.person, '/settings', '/settings/email', { newEmail: 'kim.stolen@example.test' })
    assert.equal(refused.location, '/settings/email/single-sign-on')
    const shown = await v.get(refused.location!)
    assert.equal(shown.status, 422)
    assert.match(shown.text, /as someone who is not linked to this account\. Your e-mail has not changed/)
    assert.equal((await usersRepository.findById(s.t.ctx.db, user.id))?.email, user.email)

    const back = await throughProviderAs(v, person, '/settings', '/settings/email', { newEmail: 'kim.new@example.test' })
    const done = await v.get(back.location!)
    assert.equal(done.status, 303)
    assert.match((await v.get('/settings')).text, /Your e-mail is now kim\.new@example\.test/)
    assert.equal((await usersRepository.findById(s.t.ctx.db, user.id))?.email, 'kim.new@example.test')
    // The provider's word was used once: the same address again asks the provider again.
    assert.equal((await v.get('/settings/email/single-sign-on')).status, 303)
  })

  it('deletes itself after signing in again at the provider, and not without', async () => {
    const { v, user, person } = await ssoAccount('max')
    const page = await v.get('/settings/delete')
    assert.match(page.text, /Sign in again and delete my account/)
    assert.doesNotMatch(page.text, /name="currentPassword"/)
    // No word from the provider: nothing is deleted, and the page says what to do.
    const early = await v.get('/settings/delete/single-sign-on')
    assert.equal(early.location, '/settings/delete')
    assert.match((await v.get('/settings/delete')).text, /Nothing was deleted: confirm it is you at your single sign-on provider first/)
    // A password typed into a crafted form is no answer: the provider is asked.
    const typed = await v.submit('/settings/delete', { currentPassword: 'whatever' })
    assert.equal(new URL(typed.location!).origin, s.a.issuer)
    assert.ok(await usersRepository.findById(s.t.ctx.db, user.id))

    const back = await throughProviderAs(v, person, '/settings/delete', '/settings/delete')
    assert.equal(back.location, '/settings/delete/single-sign-on')
    const done = await v.get(back.location!)
    assert.equal(done.status, 200)
    assert.match(done.text, /Your account is deleted/)
    assert.equal(await usersRepository.findById(s.t.ctx.db, user.id), undefined)
  })

  it('adds a way to sign in only after signing in again at the provider, as its own person', async () => {
    const { v, user, person } = await ssoAccount('pat')
    const stranger = await ssoAccount('quin')
    const page = await v.get('/settings/two-factor')
    assert.match(page.text, /Sign in again to confirm/)
    assert.doesNotMatch(page.text, /Set up two-factor codes/)
    assert.match(page.headers.get('content-security-policy') ?? '', new RegExp(`form-action 'self' ${s.a.issuer}`))
    // A session alone: a crafted start, or a passkey's challenge, is refused and nothing is kept.
    assert.equal((await v.submit('/settings/two-factor', {}, '/settings/two-factor/start')).status, 422)
    const csrf = csrfOf((await v.get('/settings/passkeys')).text)
    assert.equal((await v.post('/settings/passkeys/options', { _csrf: csrf })).status, 422)
    const seeds = () => s.t.ctx.db.selectFrom('totp_authenticators').select('user_id').where('user_id', '=', user.id).execute()
    assert.deepEqual(await seeds(), [])
    // No word from the provider yet, then someone else's: still nothing.
    assert.equal((await v.get('/settings/two-factor/owner/single-sign-on')).location, '/settings/two-factor')
    const refused = await confirmToAddAt(v, s.a, stranger.person, '/settings/two-factor')
    assert.equal(refused.status, 422)
    assert.match(refused.text, /as someone who is not linked to this account/)
    assert.equal((await v.submit('/settings/two-factor', {}, '/settings/two-factor/start')).status, 422)

    assert.equal((await confirmToAddAt(v, s.a, person, '/settings/two-factor')).status, 303)
    await enrol(v, null)
    assert.equal((await account.confirmation(s.t.ctx, ownerPrincipal(user))).by, 'second-factor')
  })

  it('takes only a new sign-in at the provider: an old one, or another account’s person, is refused', async () => {
    const { user } = await ssoAccount('nia')
    const other = await ssoAccount('oz')
    const identity = (issuer: string, subject: string, ageSeconds: number) => ({
      singleSignOn: { issuer, subject, email: undefined, emailVerified: false, name: undefined, authenticatedAt: Math.floor(Date.now() / 1000) - ageSeconds },
    })
    const principal = ownerPrincipal(user)
    const refusedWith = (pattern: RegExp) => (err: { errors?: unknown }) => pattern.test(JSON.stringify(err.errors))
    await assert.rejects(account.delete(s.t.ctx, principal, { proof: identity(s.a.issuer, 'nia', 3600) }), refusedWith(/did not ask you to sign in again/))
    await assert.rejects(account.delete(s.t.ctx, principal, { proof: identity(s.a.issuer, 'oz', 0) }), refusedWith(/not linked to this account/))
    await assert.rejects(account.delete(s.t.ctx, principal, { proof: undefined }), refusedWith(/signing in again at your single sign-on provider/))
    assert.ok(await usersRepository.findById(s.t.ctx.db, user.id))
    assert.ok(await usersRepository.findById(s.t.ctx.db, other.user.id))
    await account.delete(s.t.ctx, principal, { proof: identity(s.a.issuer, 'nia', 5) })
    assert.equal(await usersRepository.findById(s.t.ctx.db, user.id), undefined)
  })
})

describe(`two apps in one process keep their own provider metadata (${STORE})`, () => {
  it('lets the second app sign in with its own client secret after the first fetched the metadata with another', async () => {
    const apps: TestApp[] = []
    const op = await startProvider({ clientId: 'slotline', clientSecret: CLIENT_SECRET, redirectUri: () => `${apps[1].url}/login/sso/callback` })
    try {
      // Same issuer and client id, a secret the provider does not know: what the first app
      // fetched (the secret bound into it) must never serve the second.
      apps.push(await startApp({ ...SSO_ENV, OIDC_ISSUER_URL: op.issuer, OIDC_CLIENT_SECRET: 'a-secret-the-provider-does-not-know-0123456789' }))
      apps.push(await startApp({ ...SSO_ENV, OIDC_ISSUER_URL: op.issuer }))
      const [first, second] = apps
      assert.equal((await Visitor.of(first).get('/login/sso')).status, 303)
      assert.equal(first.ctx.providerMetadata.size, 1)
      assert.equal(second.ctx.providerMetadata.size, 0)
      const { v, res } = await ssoSignIn(second, op, { sub: 'pia', email: 'pia@example.test', email_verified: true })
      assert.equal(res.status, 303, res.text.slice(0, 300))
      assert.equal((await v.get('/my-links')).status, 200)
      assert.equal(second.ctx.providerMetadata.size, 1)
    } finally {
      for (const app of apps) await app.close()
      await op.close()
    }
  })
})

describe(`password sign-in turned off (${STORE})`, () => {
  let s: Awaited<ReturnType<typeof providersAndApp>>
  before(async () => {
    s = await providersAndApp({ PASSWORD_SIGN_IN: 'off' })
  })
  after(async () => {
    await s.t.close()
    await s.a.close()
    await s.b.close()
  })

  it('shows only the button and refuses password forms, resets and registration', async () => {
    const user = await makeUser(s.t)
    const v = Visitor.of(s.t)
    const page = await v.get('/login')
    assert.match(page.text, /Sign in with Example ID/)
    assert.doesNotMatch(page.text, /name="password"|Forgot your password|<form/)
    // The right password is refused too, from a form a browser kept from before the switch (a
    // valid visitor token): the form is off, not merely hidden.
    const cookie = `${Date.now()}.${randomBytes(16).toString('base64url')}`
    v.cookies.set('slotline_visitor', cookie)
    const key = createHmac('sha256', s.t.ctx.secret).update('dashboard visitor csrf').digest()
    const _csrf = createHmac('sha256', key).update(cookie).digest('base64url')
    const posted = await v.post('/login', { _csrf, email: user.email, password: 'correct horse battery' })
    assert.equal(posted.status, 403)
    assert.match(posted.text, /Signing in with a password is turned off here/)
    assert.equal((await v.get('/my-links')).status, 303)
    for (const path of ['/login/forgot', '/login/reset?token=x', '/register']) assert.equal((await v.get(path)).status, 403, path)
  })

  it('signs in through the provider, and a linked account cannot be unlinked', async () => {
    const { v, res } = await ssoSignIn(s.t, s.a, { sub: 'hana', email: 'hana@example.test', email_verified: true })
    assert.equal(res.status, 303)
    const page = await v.get('/settings/single-sign-on')
    assert.match(page.text, /the only way to sign in here/)
    assert.doesNotMatch(page.text, /Unlink/)
  })
})
