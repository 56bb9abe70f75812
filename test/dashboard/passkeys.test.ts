import assert from 'node:assert/strict'
import { generateKeyPairSync } from 'node:crypto'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { unzipSync } from 'fflate'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, freshEmail, Visitor } from '../helpers/dashboard.ts'
import { useHandClock } from '../helpers/rate-limits.ts'
import { addSoftPasskey, passkeyAnswer, SoftPasskey } from '../helpers/passkeys.ts'
import { enrol } from '../helpers/two-factor.ts'
import { passkeysRepository } from '../../src/store/passkeys.ts'
import { usersRepository } from '../../src/store/users.ts'

// The service's side of passkeys, answered by a small software authenticator (helpers/passkeys.ts:
// P-256 keys, the WebAuthn byte layout): foreign, replayed and misdirected answers, the
// limits, dropping the password, and what logs and downloads never hold.

async function withPasskey(t: TestApp) {
  const v = Visitor.of(t)
  const email = freshEmail()
  await v.register({ email })
  const user = (await usersRepository.findByEmail(t.ctx.db, email))!
  return { v, email, user, passkey: await addSoftPasskey(t, user.id) }
}

/** A visitor on the sign-in page who asked for a challenge; answers it and the form's CSRF token. */
async function challenged(t: TestApp, v = Visitor.of(t)) {
  const csrf = csrfOf((await v.get('/login')).text)
  const res = await v.post('/login/passkey/options', { _csrf: csrf })
  assert.equal(res.status, 200)
  return { v, csrf, challenge: JSON.parse(res.text).challenge as string }
}

const signedIn = async (v: Visitor) => (await v.get('/settings')).status === 200

describe(`passkeys (${STORE})`, () => {
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

  it('signs in with a right answer; refuses a forged, replayed, misdirected or borrowed one', async () => {
    const { passkey } = await withPasskey(t)
    const good = await challenged(t)
    const answer = passkey.answer(good.challenge, t.url)
    const ok = await good.v.post('/login/passkey', { _csrf: good.csrf, credential: answer, next: '/settings' })
    assert.equal(ok.location, '/settings')
    assert.ok(await signedIn(good.v))

    // The same answer again, from another visitor: its challenge is spent.
    const replay = await challenged(t)
    assert.equal((await replay.v.post('/login/passkey', { _csrf: replay.csrf, credential: answer })).location, '/login')
    assert.ok(!(await signedIn(replay.v)))

    // Signed by a key that is not the passkey's.
    const forged = await challenged(t)
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
    await forged.v.post('/login/passkey', { _csrf: forged.csrf, credential: passkey.answer(forged.challenge, t.url, { key: stranger }) })
    assert.ok(!(await signedIn(forged.v)))

    // Made for another site.
    const phished = await challenged(t)
    await phished.v.post('/login/passkey', { _csrf: phished.csrf, credential: passkey.answer(phished.challenge, 'https://slotline.example.net') })
    assert.ok(!(await signedIn(phished.v)))

    // A challenge given to one visitor, answered in another's session.
    const victim = await challenged(t)
    const thief = await challenged(t)
    await thief.v.post('/login/passkey', { _csrf: thief.csrf, credential: passkey.answer(victim.challenge, t.url) })
    assert.ok(!(await signedIn(thief.v)))

    // A counter that went back: a copied passkey.
    const cloned = await challenged(t)
    await cloned.v.post('/login/passkey', { _csrf: cloned.csrf, credential: passkey.answer(cloned.challenge, t.url, { counter: 1 }) })
    assert.ok(!(await signedIn(cloned.v)))

    // Unknown passkey, and no answer at all (no JavaScript).
    const unknown = await challenged(t)
    await unknown.v.post('/login/passkey', { _csrf: unknown.csrf, credential: new SoftPasskey().answer(unknown.challenge, t.url) })
    assert.ok(!(await signedIn(unknown.v)))
    const none = await challenged(t)
    await none.v.post('/login/passkey', { _csrf: none.csrf, credential: '' })
    assert.match((await none.v.get('/login')).text, /Passkeys need JavaScript in this browser/)

    // Still good after all that.
    const again = await challenged(t)
    await again.v.post('/login/passkey', { _csrf: again.csrf, credential: passkey.answer(again.challenge, t.url) })
    assert.ok(await signedIn(again.v))
  })

  it('as the second step, takes only a passkey of the account that gave the password', async () => {
    const { email, passkey } = await withPasskey(t)
    const other = await withPasskey(t)
    const v = Visitor.of(t)
    assert.equal((await v.submit('/login', { email, password: 'correct horse battery' })).location, '/login/code')
    const step = await v.get('/login/code')
    assert.match(step.text, /Sign in with your passkey/)
    assert.doesNotMatch(step.text, /autocomplete="one-time-code"/, 'no code field without two-factor codes')
    const csrf = csrfOf(step.text)
    const options = JSON.parse((await v.post('/login/code/passkey-options', { _csrf: csrf })).text)
    assert.deepEqual(
      options.allowCredentials.map((c: { id: string }) => c.id),
      [passkey.id],
    )
    const wrong = await v.post('/login/code/passkey', { _csrf: csrf, credential: other.passkey.answer(options.challenge, t.url) })
    assert.equal(wrong.status, 401)
    assert.ok(!(await signedIn(v)))
    const options2 = JSON.parse((await v.post('/login/code/passkey-options', { _csrf: csrf })).text)
    assert.equal((await v.post('/login/code/passkey', { _csrf: csrf, credential: passkey.answer(options2.challenge, t.url) })).status, 303)
    assert.ok(await signedIn(v))
  })

  it('drops the password only with a passkey and recovery codes, then refuses it; keeps the last passkey', async () => {
    const { v, email } = await withPasskey(t)
    const early = await v.submit('/settings/passkeys', { currentPassword: 'correct horse battery' }, '/settings/passkeys/password')
    assert.equal(early.status, 422)
    assert.match((await v.get('/settings/passkeys')).text, /Once you have a passkey \(you do\) and recovery codes/)
    await enrol(v)
    const wrong = await v.submit('/settings/passkeys', { currentPassword: 'not the password' }, '/settings/passkeys/password')
    assert.equal(wrong.status, 422)
    const dropped = await v.submit('/settings/passkeys', { currentPassword: 'correct horse battery' }, '/settings/passkeys/password')
    assert.equal(dropped.status, 303)
    const page = await v.get('/settings/passkeys')
    assert.match(page.text, /Your password is removed: you now sign in with a passkey only/)
    assert.match(page.text, /Your account has no password/)
    assert.equal((await Visitor.of(t).submit('/login', { email, password: 'correct horse battery' })).status, 401)
    const id = /action="\/settings\/passkeys\/(\d+)\/remove"/.exec(page.text)![1]
    const kept = await v.submit('/settings/passkeys', {}, `/settings/passkeys/${id}/remove`)
    assert.equal(kept.status, 422)
    assert.match(kept.text, /removing it would leave no way to sign in/)
  })

  it('gives a new passkey its challenge only after the owner confirms: the password, else the second step', async () => {
    const { v, passkey } = await withPasskey(t)
    const options = async () => v.post('/settings/passkeys/options', { _csrf: csrfOf((await v.get('/settings/passkeys')).text) })
    const alone = await options()
    assert.equal(alone.status, 422)
    assert.match(JSON.parse(alone.text).message, /Confirm it is you first/)
    const wrong = await v.submit('/settings/passkeys', { ownerPassword: 'not the password' }, '/settings/passkeys/owner')
    assert.equal(wrong.status, 422)
    assert.match(wrong.text, /This is not your current password/)
    assert.equal((await options()).status, 422)
    assert.equal((await v.submit('/settings/passkeys', { ownerPassword: 'correct horse battery' }, '/settings/passkeys/owner')).status, 303)
    const given = await options()
    assert.equal(given.status, 200)
    assert.equal(JSON.parse(given.text).excludeCredentials.length, 1)

    // Without a password: its passkey or a code, the sign-in's own, confirms.
    await enrol(v)
    assert.equal((await v.submit('/settings/passkeys', { currentPassword: 'correct horse battery' }, '/settings/passkeys/password')).status, 303)
    const page = await v.get('/settings/passkeys')
    assert.doesNotMatch(page.text, /name="ownerPassword"/)
    assert.match(page.text, /Confirm with your passkey/)
    assert.equal((await v.submit('/settings/passkeys', { code: '000000' }, '/settings/passkeys/owner')).status, 422)
    const csrf = csrfOf(page.text)
    const stranger = new SoftPasskey()
    const foreign = await v.post('/settings/passkeys/owner', { _csrf: csrf, credential: await passkeyAnswer(v, csrf, stranger, t.url) })
    assert.equal(foreign.status, 422)
    assert.equal((await options()).status, 422)
    assert.equal((await v.post('/settings/passkeys/owner', { _csrf: csrf, credential: await passkeyAnswer(v, csrf, passkey, t.url) })).status, 303)
    assert.equal((await options()).status, 200)
  })

  it('renames and removes only its own passkeys; the others are not found', async () => {
    const mine = await withPasskey(t)
    const theirs = await withPasskey(t)
    const theirId = (await passkeysRepository.listFor(t.ctx.db, theirs.user.id))[0].id
    assert.equal((await mine.v.submit('/settings/passkeys', { name: 'Mine now' }, `/settings/passkeys/${theirId}/rename`)).status, 404)
    assert.equal((await mine.v.submit('/settings/passkeys', {}, `/settings/passkeys/${theirId}/remove`)).status, 404)
    assert.equal((await passkeysRepository.listFor(t.ctx.db, theirs.user.id))[0].name, 'Phone')
  })

  it('puts no public key or passkey answer in logs or the account download', async () => {
    const { v, passkey } = await withPasskey(t)
    const c = await challenged(t)
    const answer = passkey.answer(c.challenge, t.url)
    await c.v.post('/login/passkey', { _csrf: c.csrf, credential: answer })
    const cookie = [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; ')
    const account = unzipSync(new Uint8Array(await (await fetch(`${t.url}/settings/export`, { headers: { cookie } })).arrayBuffer()))
    const signature = JSON.parse(answer).response.signature as string
    const seen = (hay: string) => [passkey.cosePublicKey(), signature, c.challenge].filter((s) => hay.includes(s))
    for (const file of Object.values(account)) assert.deepEqual(seen(Buffer.from(file).toString('latin1')), [])
    assert.deepEqual(seen(lines.join('')), [])
    assert.ok(lines.length > 0)
  })
})

describe(`passkey answers are counted like passwords (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp({ RATE_LIMIT_SIGN_IN_PER_10_MINUTES: '3' })
  })
  after(() => t.close())

  it('waits (429) past the limit, even with a right answer', async () => {
    const { passkey } = await withPasskey(t)
    useHandClock(t)
    for (let i = 0; i < 3; i++) {
      const c = await challenged(t)
      assert.equal((await c.v.post('/login/passkey', { _csrf: c.csrf, credential: new SoftPasskey().answer(c.challenge, t.url) })).location, '/login')
    }
    const c = await challenged(t)
    const waiting = await c.v.post('/login/passkey', { _csrf: c.csrf, credential: passkey.answer(c.challenge, t.url) })
    assert.equal(waiting.status, 429)
    assert.ok(Number(waiting.headers.get('retry-after')) > 0)
  })
})
