import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { AppEvents } from '../../src/context.ts'
import { RESERVED_LOGINS } from '../../src/profiles/logins.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import type { User } from '../../src/store/users.ts'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
before(async () => {
  t = await startApp()
})
after(() => t.close())

let seq = 0
const freshLogin = (prefix = 'set') => `${prefix}_${process.pid}_${seq++}`

async function setOwnerLanguage(user: User, code: string) {
  await t.ctx.db.updateTable('users').set({ language_code: code }).where('id', '=', user.id).execute()
}

async function page() {
  const { user, token } = await makeAccount(t)
  const profile = await makeProfile(t, user, freshLogin())
  const get = (key: string = String(profile.id)) => t.request('GET', `/v1/profiles/${key}/settings`, { token })
  const patch = (body?: unknown, headers?: Record<string, string>, key: string = String(profile.id)) =>
    t.request('PATCH', `/v1/profiles/${key}/settings`, { token, body, headers })
  return { user, token, profile, get, patch }
}

/** Records 'profile-changed' events until stopped. */
function listen() {
  const seen: AppEvents['profile-changed'][0][] = []
  const fn = (e: AppEvents['profile-changed'][0]) => void seen.push(e)
  t.ctx.events.on('profile-changed', fn)
  return { seen, stop: () => t.ctx.events.off('profile-changed', fn) }
}

describe(`GET /profiles/{profileKey}/settings (${STORE})`, () => {
  it('answers the whole settings resource with the login rules and language choices', async () => {
    const { profile, get } = await page()
    const res = await get()
    assert.equal(res.status, 200)
    const s = res.body.data
    assert.deepEqual(Object.keys(s).sort(), ['computed', 'languageCode', 'languageId', 'login', 'options', 'profileId'])
    assert.equal(s.profileId, profile.id)
    assert.equal(s.login, profile.login)
    assert.equal(s.languageId, null)
    assert.equal(s.languageCode, null)
    assert.deepEqual(s.computed, { url: `${t.ctx.config.publicUrl}/${profile.login}`, effectiveLanguageCode: 'en' })
    assert.deepEqual(s.options.login, { minLength: 4, maxLength: 60, pattern: '^[a-zA-Z0-9._]+$', reserved: [...RESERVED_LOGINS] })
    assert.equal(s.options.login.reserved.length, 28)
    for (const word of ['adm', 'api', 'forgot-password', 'settings', 'webhook', 'mcp', 'oauth', 'static']) assert.ok(s.options.login.reserved.includes(word))
  })

  it('offers at least 12 active languages, each with id, code and name', async () => {
    const { get } = await page()
    const { languages } = (await get()).body.data.options
    assert.ok(languages.length >= 12)
    for (const l of languages) {
      assert.deepEqual(Object.keys(l).sort(), ['code', 'id', 'name'])
      assert.equal(typeof l.id, 'number')
      assert.match(l.code, /^[a-z]{2}$/)
      assert.ok(l.name)
    }
    assert.ok(languages.some((l: any) => l.code === 'en'))
    assert.equal(new Set(languages.map((l: any) => l.code)).size, languages.length)
  })

  it("falls back to the owner's language while the page has none of its own", async () => {
    const { user, get } = await page()
    await setOwnerLanguage(user, 'fr')
    assert.equal((await get()).body.data.computed.effectiveLanguageCode, 'fr')
  })

  it('reads the settings by login as well as by id', async () => {
    const { profile, get } = await page()
    const res = await get(profile.login)
    assert.equal(res.status, 200)
    assert.equal(res.body.data.profileId, profile.id)
  })

  it('works with a read-only token', async () => {
    const { user, profile } = await page()
    const token = await makeToken(t, user, ['profile:read'])
    assert.equal((await t.request('GET', `/v1/profiles/${profile.id}/settings`, { token })).status, 200)
  })

  it("answers 404 for another account's profile, by id and by login", async () => {
    const theirs = await makeProfile(t, await makeUser(t))
    const { token } = await makeAccount(t)
    for (const key of [String(theirs.id), theirs.login]) {
      const res = await t.request('GET', `/v1/profiles/${key}/settings`, { token })
      assert.equal(res.status, 404)
      assert.equal(res.body.code, 'not_found')
    }
  })

  it('refuses a request without a token with 401', async () => {
    const { profile } = await page()
    assert.equal((await t.request('GET', `/v1/profiles/${profile.id}/settings`)).status, 401)
  })
})

describe(`PATCH /profiles/{profileKey}/settings (${STORE})`, () => {
  it('sets the page language by code, in any case', async () => {
    const { user, patch } = await page()
    await setOwnerLanguage(user, 'fr')
    const res = await patch({ languageCode: 'DE' })
    assert.equal(res.status, 200)
    const s = res.body.data
    const de = s.options.languages.find((l: any) => l.code === 'de')
    assert.deepEqual([s.languageId, s.languageCode, s.computed.effectiveLanguageCode], [de.id, 'de', 'de'])
  })

  it('sets the page language by id, and shows it on the profile', async () => {
    const { token, profile, get, patch } = await page()
    const es = (await get()).body.data.options.languages.find((l: any) => l.code === 'es')
    const res = await patch({ languageId: es.id })
    assert.equal(res.status, 200)
    assert.equal(res.body.data.languageCode, 'es')
    assert.equal((await t.request('GET', `/v1/profiles/${profile.id}`, { token })).body.data.languageId, es.id)
  })

  it("goes back to the owner's language with null", async () => {
    const { user, patch } = await page()
    await setOwnerLanguage(user, 'it')
    await patch({ languageCode: 'de' })
    for (const body of [{ languageCode: null }, { languageId: null }]) {
      await patch({ languageCode: 'de' })
      const s = (await patch(body)).body.data
      assert.deepEqual([s.languageId, s.languageCode, s.computed.effectiveLanguageCode], [null, null, 'it'])
    }
  })

  it('accepts languageCode and languageId together only when they name the same language', async () => {
    const { get, patch } = await page()
    const langs = (await get()).body.data.options.languages
    const de = langs.find((l: any) => l.code === 'de')
    const fr = langs.find((l: any) => l.code === 'fr')
    assert.equal((await patch({ languageCode: 'de', languageId: de.id })).status, 200)
    const res = await patch({ languageCode: 'de', languageId: fr.id })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors), ['languageId'])
  })

  it('refuses an unknown language code or id with 422 naming the field', async () => {
    const { patch } = await page()
    const byCode = await patch({ languageCode: 'xx' })
    assert.equal(byCode.status, 422)
    assert.deepEqual(Object.keys(byCode.body.errors), ['languageCode'])
    const byId = await patch({ languageId: 99999 })
    assert.equal(byId.status, 422)
    assert.deepEqual(Object.keys(byId.body.errors), ['languageId'])
    const wrongType = await patch({ languageId: 'de', languageCode: 7 })
    assert.deepEqual(Object.keys(wrongType.body.errors).sort(), ['languageCode', 'languageId'])
  })

  it('moves the page to a new login: the old address is 404 at once, the new one answers', async () => {
    const { token, profile, patch } = await page()
    const old = profile.login
    const login = freshLogin('Moved')
    const res = await patch({ login })
    assert.equal(res.status, 200)
    assert.equal(res.body.data.login, login)
    assert.equal(res.body.data.computed.url, `${t.ctx.config.publicUrl}/${login}`)
    for (const path of [`/v1/profiles/${old}`, `/v1/profiles/${old}/settings`]) {
      const gone = await t.request('GET', path, { token })
      assert.equal(gone.status, 404, path)
    }
    assert.equal((await t.request('PATCH', `/v1/profiles/${old}`, { token, body: { title: 'x' } })).status, 404)
    const now = await t.request('GET', `/v1/profiles/${login}`, { token })
    assert.equal(now.status, 200)
    assert.equal(now.body.data.id, profile.id)
    assert.equal(now.body.data.computed.url, `${t.ctx.config.publicUrl}/${login}`)
    assert.equal((await t.request('GET', `/v1/profiles/${profile.id}`, { token })).body.data.login, login)
  })

  it('announces the change with both logins once the rename committed', async () => {
    const { profile, patch } = await page()
    const login = freshLogin('Announced')
    const events = listen()
    try {
      await patch({ login })
    } finally {
      events.stop()
    }
    assert.ok(
      events.seen.some((e) => e.profileId === profile.id && e.logins.includes(profile.login) && e.logins.includes(login)),
      JSON.stringify(events.seen),
    )
  })

  it('frees the old login for anyone', async () => {
    const { profile, patch } = await page()
    await patch({ login: freshLogin() })
    const { token } = await makeAccount(t)
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: profile.login } })
    assert.equal(res.status, 201)
  })

  it('applies every login rule: length, characters, reserved words, uniqueness', async () => {
    const { profile, patch } = await page()
    const theirs = await makeProfile(t, await makeUser(t), freshLogin('Theirs'))
    for (const login of ['abc', 'x'.repeat(61), 'jane-doe', 'Settings', 'OAUTH', theirs.login.toLowerCase()]) {
      const res = await patch({ login })
      assert.equal(res.status, 422, login)
      assert.deepEqual(Object.keys(res.body.errors), ['login'], login)
    }
    assert.match((await patch({ login: 'Settings' })).body.errors.login[0], /reserved/)
    assert.match((await patch({ login: theirs.login.toUpperCase() })).body.errors.login[0], /already taken/)
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))!.login, profile.login)
  })

  it("refuses the login of the user's own other page", async () => {
    const { user, patch } = await page()
    const other = await makeProfile(t, user, freshLogin())
    const res = await patch({ login: other.login })
    assert.equal(res.status, 422)
    assert.ok(res.body.errors.login)
  })

  it('accepts logins of 4 and 60 characters', async () => {
    const { patch } = await page()
    for (const login of [`q${String(seq++ % 1000).padStart(3, '0')}`, `w${seq++}_`.padEnd(60, 'w')]) {
      const res = await patch({ login })
      assert.equal(res.status, 200, `${login}: ${res.text}`)
      assert.equal(res.body.data.login, login)
    }
  })

  it('accepts a change of case only, and keeping the same login changes nothing', async () => {
    const { profile, patch } = await page()
    const upper = profile.login.toUpperCase()
    const res = await patch({ login: upper })
    assert.equal(res.status, 200)
    assert.equal(res.body.data.login, upper)
    const before = await profilesRepository.findById(t.ctx.db, profile.id)
    const same = await patch({ login: upper })
    assert.equal(same.status, 200)
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))!.updatedAt, before!.updatedAt)
  })

  it('leaves omitted fields untouched, and an empty body changes nothing', async () => {
    const { patch } = await page()
    await patch({ languageCode: 'pl' })
    const login = freshLogin()
    const renamed = await patch({ login })
    assert.equal(renamed.body.data.languageCode, 'pl')
    const langOnly = await patch({ languageCode: 'nl' })
    assert.equal(langOnly.body.data.login, login)
    for (const body of [undefined, {}]) {
      const res = await patch(body)
      assert.equal(res.status, 200)
      assert.deepEqual([res.body.data.login, res.body.data.languageCode], [login, 'nl'])
    }
  })

  it('reports login and language problems together, and refuses unknown fields', async () => {
    const { patch } = await page()
    const both = await patch({ login: 'Settings', languageCode: 'zz' })
    assert.equal(both.status, 422)
    assert.deepEqual(Object.keys(both.body.errors).sort(), ['languageCode', 'login'])
    const unknown = await patch({ themeId: 3, title: 'x' })
    assert.deepEqual(Object.keys(unknown.body.errors).sort(), ['themeId', 'title'])
  })

  it('validates a rename under Precognition: true without moving the page or announcing it', async () => {
    const { token, profile, patch } = await page()
    const headers = { precognition: 'true' }
    const events = listen()
    let ok: Awaited<ReturnType<typeof patch>>
    try {
      ok = await patch({ login: freshLogin() }, headers)
    } finally {
      events.stop()
    }
    assert.equal(ok.status, 204)
    assert.deepEqual(events.seen, [])
    const bad = await patch({ login: 'login' }, headers)
    assert.equal(bad.status, 422)
    assert.ok(bad.body.errors.login)
    assert.equal((await t.request('GET', `/v1/profiles/${profile.login}`, { token })).status, 200)
  })

  it('replays a repeated Idempotency-Key and refuses the key with another body', async () => {
    const { patch } = await page()
    const headers = { 'idempotency-key': `settings-${seq++}` }
    const first = await patch({ languageCode: 'sv' }, headers)
    const again = await patch({ languageCode: 'sv' }, headers)
    assert.equal(again.status, 200)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.deepEqual(again.body, first.body)
    const other = await patch({ languageCode: 'de' }, headers)
    assert.equal(other.status, 422)
    assert.equal(other.body.code, 'idempotency_mismatch')
  })

  it("answers 404 for another account's profile, by id and by login, and changes nothing", async () => {
    const theirs = await makeProfile(t, await makeUser(t), freshLogin())
    const { token } = await makeAccount(t)
    for (const key of [String(theirs.id), theirs.login]) {
      const res = await t.request('PATCH', `/v1/profiles/${key}/settings`, { token, body: { login: freshLogin() } })
      assert.equal(res.status, 404)
    }
    assert.equal((await profilesRepository.findById(t.ctx.db, theirs.id))!.login, theirs.login)
  })

  it('refuses a request without a token with 401', async () => {
    const { profile } = await page()
    assert.equal((await t.request('PATCH', `/v1/profiles/${profile.id}/settings`, { body: { languageCode: 'de' } })).status, 401)
  })

  it('refuses a read-only token with 403', async () => {
    const { user, profile } = await page()
    const token = await makeToken(t, user, ['profile:read'])
    const res = await t.request('PATCH', `/v1/profiles/${profile.id}/settings`, { token, body: { languageCode: 'de' } })
    assert.equal(res.status, 403)
  })
})
