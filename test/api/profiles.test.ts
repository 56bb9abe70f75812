import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { RESERVED_LOGINS } from '../../src/profiles/logins.ts'
import { filesRepository } from '../../src/store/files.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import type { User } from '../../src/store/users.ts'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
before(async () => {
  t = await startApp()
})
after(() => t.close())

let seq = 0
const freshLogin = (prefix = 'page') => `${prefix}_${process.pid}_${seq++}`

/** A file row as an upload leaves it: the ownership check only needs the row. */
async function addFile(user: User, path = `u${user.id}/2026/11/img-${seq++}.webp`) {
  await filesRepository.insert(t.ctx.db, { userId: user.id, path, mime: 'image/webp', size: 1000, width: 800, height: 800 })
  return path
}

async function readOnlyToken(user: User) {
  return makeToken(t, user, ['profile:read'])
}

describe(`GET /profiles (${STORE})`, () => {
  it("lists only the token owner's profiles, oldest first, with meta.total", async () => {
    const { user, token } = await makeAccount(t)
    const first = await makeProfile(t, user)
    const second = await makeProfile(t, user)
    await makeProfile(t, await makeUser(t))
    const res = await t.request('GET', '/v1/profiles', { token })
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.data.map((p: any) => p.id),
      [first.id, second.id],
    )
    assert.deepEqual(res.body.meta, { total: 2 })
  })

  it('answers an empty list for an account without pages', async () => {
    const { token } = await makeAccount(t)
    const res = await t.request('GET', '/v1/profiles', { token })
    assert.deepEqual(res.body, { data: [], meta: { total: 0 } })
  })

  it('works with a read-only token', async () => {
    const user = await makeUser(t)
    assert.equal((await t.request('GET', '/v1/profiles', { token: await readOnlyToken(user) })).status, 200)
  })

  it('refuses a request without a token with 401', async () => {
    assert.equal((await t.request('GET', '/v1/profiles')).status, 401)
  })
})

describe(`POST /profiles (${STORE})`, () => {
  it('creates a page and answers 201 with the whole resource', async () => {
    const { token } = await makeAccount(t)
    const login = freshLogin('new')
    const res = await t.request('POST', '/v1/profiles', { token, body: { login } })
    assert.equal(res.status, 201)
    const p = res.body.data
    assert.equal(p.login, login)
    assert.equal(typeof p.id, 'number')
    assert.deepEqual(
      { title: p.title, description: p.description, avatar: p.avatar, bgImage: p.bgImage, socials: p.socials, languageId: p.languageId },
      { title: null, description: null, avatar: null, bgImage: null, socials: [], languageId: null },
    )
    assert.equal(typeof p.themeId, 'number')
    assert.deepEqual(p.computed, {
      url: `${t.ctx.config.publicUrl}/${login}`,
      avatarUrl: null,
      bgImageUrl: null,
      socials: [],
      isMain: true,
      status: true,
    })
    assert.equal('slots' in p, false)
  })

  it('makes only the first profile of a user the main one', async () => {
    const { token } = await makeAccount(t)
    const a = await t.request('POST', '/v1/profiles', { token, body: { login: freshLogin() } })
    const b = await t.request('POST', '/v1/profiles', { token, body: { login: freshLogin() } })
    assert.equal(a.body.data.computed.isMain, true)
    assert.equal(b.body.data.computed.isMain, false)
    const list = await t.request('GET', '/v1/profiles', { token })
    assert.deepEqual(
      list.body.data.map((p: any) => p.computed.isMain),
      [true, false],
    )
  })

  it('accepts logins of 4 and of 60 characters', async () => {
    const { token } = await makeAccount(t)
    for (const login of ['ab.4', `l${seq++}`.padEnd(60, 'x')]) {
      const res = await t.request('POST', '/v1/profiles', { token, body: { login } })
      assert.equal(res.status, 201, `${login}: ${res.text}`)
    }
  })

  it('refuses logins of 3 and of 61 characters with 422 naming login', async () => {
    const { token } = await makeAccount(t)
    for (const login of ['abc', 'x'.repeat(61)]) {
      const res = await t.request('POST', '/v1/profiles', { token, body: { login } })
      assert.equal(res.status, 422)
      assert.equal(res.body.code, 'validation_failed')
      assert.deepEqual(Object.keys(res.body.errors), ['login'])
    }
  })

  it('refuses characters outside letters, digits, dots and underscores', async () => {
    const { token } = await makeAccount(t)
    for (const login of ['jane-doe', 'jane doe', 'jané.doe', 'jane/doe', 'jane@doe']) {
      const res = await t.request('POST', '/v1/profiles', { token, body: { login } })
      assert.equal(res.status, 422, login)
      assert.ok(res.body.errors.login, login)
    }
  })

  it('accepts a digits-only login: its page is /<digits> and the API reaches it by id, as the spec reads such a key', async () => {
    const { token } = await makeAccount(t)
    const first = (await t.request('POST', '/v1/profiles', { token, body: { login: freshLogin('first') } })).body.data
    // Leading zeros keep the number equal to the first page's id, so the key cannot be read as a login by accident.
    const digits = String(first.id).padStart(12, '0')
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: digits } })
    assert.equal(res.status, 201)
    const created = res.body.data
    assert.equal(created.login, digits)
    assert.equal(created.computed.url, `${t.url}/${digits}`)
    assert.equal((await t.request('GET', `/v1/profiles/${created.id}`, { token })).body.data.login, digits)
    assert.equal((await t.request('GET', `/v1/profiles/${digits}`, { token })).body.data.id, first.id)
    const page = await fetch(`${t.url}/${digits}`)
    assert.equal(page.status, 200)
    assert.match(await page.text(), new RegExp(digits))
    const again = await t.request('POST', '/v1/profiles', { token, body: { login: digits } })
    assert.equal(again.status, 422)
    assert.match(again.body.errors.login[0], /already taken/)
  })

  it('renames a page to a digits-only login through its settings, reached by id afterwards', async () => {
    const { user, token } = await makeAccount(t)
    const mine = await makeProfile(t, user)
    const digits = `9${Date.now()}${seq++}`.slice(0, 20)
    const res = await t.request('PATCH', `/v1/profiles/${mine.login}/settings`, { token, body: { login: digits } })
    assert.equal(res.status, 200)
    assert.equal((await t.request('GET', `/v1/profiles/${mine.id}/settings`, { token })).body.data.login, digits)
    assert.equal((await fetch(`${t.url}/${digits}`)).status, 200)
    assert.equal((await fetch(`${t.url}/${mine.login}`)).status, 404)
  })

  it('refuses each of the 28 reserved logins, in any case', async () => {
    assert.equal(RESERVED_LOGINS.length, 28)
    const { token } = await makeAccount(t)
    for (const word of RESERVED_LOGINS) {
      for (const login of [word, word.toUpperCase()]) {
        const res = await t.request('POST', '/v1/profiles', { token, body: { login } })
        assert.equal(res.status, 422, login)
        assert.ok(res.body.errors.login, login)
      }
    }
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: 'Settings' } })
    assert.match(res.body.errors.login[0], /reserved/)
  })

  it('refuses a login another page holds, compared case-insensitively', async () => {
    const theirs = await makeProfile(t, await makeUser(t), freshLogin('Taken'))
    const { token } = await makeAccount(t)
    for (const login of [theirs.login, theirs.login.toLowerCase(), theirs.login.toUpperCase()]) {
      const res = await t.request('POST', '/v1/profiles', { token, body: { login } })
      assert.equal(res.status, 422)
      assert.match(res.body.errors.login[0], /already taken/)
    }
  })

  it('refuses unknown fields and a missing login with 422 naming each', async () => {
    const { token } = await makeAccount(t)
    const res = await t.request('POST', '/v1/profiles', { token, body: { title: 'x' } })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['login', 'title'])
  })

  it('answers 409 limit_reached once the user holds 100 profiles', async () => {
    const { user, token } = await makeAccount(t)
    for (let i = 0; i < 99; i++) await profilesRepository.insert(t.ctx.db, { userId: user.id, login: freshLogin('bulk'), isMain: i === 0 })
    const hundredth = await t.request('POST', '/v1/profiles', { token, body: { login: freshLogin() } })
    assert.equal(hundredth.status, 201)
    const res = await t.request('POST', '/v1/profiles', { token, body: { login: freshLogin() } })
    assert.equal(res.status, 409)
    assert.equal(res.body.code, 'limit_reached')
    assert.equal(await profilesRepository.countByUser(t.ctx.db, user.id), 100)
  })

  it('validates without creating anything under Precognition: true', async () => {
    const { user, token } = await makeAccount(t)
    const headers = { precognition: 'true' }
    const ok = await t.request('POST', '/v1/profiles', { token, headers, body: { login: freshLogin() } })
    assert.equal(ok.status, 204)
    assert.equal(ok.headers['precognition-success'], 'true')
    const bad = await t.request('POST', '/v1/profiles', { token, headers, body: { login: 'api' } })
    assert.equal(bad.status, 422)
    assert.ok(bad.body.errors.login)
    assert.equal(await profilesRepository.countByUser(t.ctx.db, user.id), 0)
  })

  it('creates once for a repeated Idempotency-Key and refuses the key with another body', async () => {
    const { user, token } = await makeAccount(t)
    const login = freshLogin('idem')
    const headers = { 'idempotency-key': `create-${login}` }
    const first = await t.request('POST', '/v1/profiles', { token, headers, body: { login } })
    const again = await t.request('POST', '/v1/profiles', { token, headers, body: { login } })
    assert.equal(first.status, 201)
    assert.equal(again.status, 201)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.deepEqual(again.body, first.body)
    assert.equal(await profilesRepository.countByUser(t.ctx.db, user.id), 1)
    const other = await t.request('POST', '/v1/profiles', { token, headers, body: { login: freshLogin() } })
    assert.equal(other.status, 422)
    assert.equal(other.body.code, 'idempotency_mismatch')
  })

  it('refuses a request without a token with 401', async () => {
    assert.equal((await t.request('POST', '/v1/profiles', { body: { login: freshLogin() } })).status, 401)
  })

  it('refuses a read-only token with 403', async () => {
    const user = await makeUser(t)
    const res = await t.request('POST', '/v1/profiles', { token: await readOnlyToken(user), body: { login: freshLogin() } })
    assert.equal(res.status, 403)
    assert.equal(res.body.code, 'forbidden')
  })
})

describe(`GET /profiles/{profileKey} (${STORE})`, () => {
  it('reads a profile by id and by login in any case', async () => {
    const { user, token } = await makeAccount(t)
    const p = await makeProfile(t, user, freshLogin('Read'))
    for (const key of [String(p.id), p.login, p.login.toLowerCase()]) {
      const res = await t.request('GET', `/v1/profiles/${key}`, { token })
      assert.equal(res.status, 200, key)
      assert.equal(res.body.data.id, p.id)
      assert.equal(res.body.data.login, p.login)
    }
  })

  it("answers 404 for another account's profile, by id and by login", async () => {
    const theirs = await makeProfile(t, await makeUser(t))
    const { token } = await makeAccount(t)
    for (const key of [String(theirs.id), theirs.login]) {
      const res = await t.request('GET', `/v1/profiles/${key}`, { token })
      assert.equal(res.status, 404)
      assert.equal(res.body.code, 'not_found')
    }
  })

  it('refuses a request without a token with 401', async () => {
    const p = await makeProfile(t, await makeUser(t))
    assert.equal((await t.request('GET', `/v1/profiles/${p.id}`)).status, 401)
  })
})

describe(`PATCH /profiles/{profileKey} (${STORE})`, () => {
  async function page() {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const patch = (body?: unknown, headers?: Record<string, string>, key: string = String(profile.id)) =>
      t.request('PATCH', `/v1/profiles/${key}`, { token, body, headers })
    return { user, token, profile, patch }
  }

  it('changes the fields sent and leaves omitted ones untouched', async () => {
    const { patch } = await page()
    await patch({ title: 'Jane Doe', description: 'Hello' })
    const res = await patch({ title: 'Jane D.' })
    assert.equal(res.status, 200)
    assert.equal(res.body.data.title, 'Jane D.')
    assert.equal(res.body.data.description, 'Hello')
  })

  it('clears a field sent as null', async () => {
    const { user, patch } = await page()
    const avatar = await addFile(user)
    await patch({ title: 'T', description: 'D', avatar })
    const res = await patch({ title: null, description: null, avatar: null })
    assert.equal(res.status, 200)
    assert.deepEqual([res.body.data.title, res.body.data.description, res.body.data.avatar], [null, null, null])
    assert.equal(res.body.data.computed.avatarUrl, null)
  })

  it('changes nothing when the body is omitted or empty', async () => {
    const { patch, profile } = await page()
    await patch({ title: 'Kept' })
    const before = await profilesRepository.findById(t.ctx.db, profile.id)
    for (const body of [undefined, {}]) {
      const res = await patch(body)
      assert.equal(res.status, 200)
      assert.equal(res.body.data.title, 'Kept')
    }
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))!.updatedAt, before!.updatedAt)
  })

  it('accepts a title of 200 characters and refuses 201 with 422 naming title', async () => {
    const { patch } = await page()
    assert.equal((await patch({ title: 't'.repeat(200) })).status, 200)
    const res = await patch({ title: 't'.repeat(201) })
    assert.equal(res.status, 422)
    assert.deepEqual(res.body.errors, { title: ['Must be at most 200 characters.'] })
  })

  it('accepts a description of 5000 characters and refuses 5001', async () => {
    const { patch } = await page()
    assert.equal((await patch({ description: 'd'.repeat(5000) })).status, 200)
    const res = await patch({ description: 'd'.repeat(5001) })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors), ['description'])
  })

  it('strips tags from the description and keeps its newlines', async () => {
    const { patch } = await page()
    const res = await patch({ description: '<p>Hi <b>there</b> & welcome</p>\r\nLine two<br>Line three<script>alert(1)</script>' })
    assert.equal(res.status, 200)
    assert.equal(res.body.data.description, 'Hi there & welcome\nLine two\nLine three')
  })

  it('refuses a non-string title with 422', async () => {
    const { patch } = await page()
    const res = await patch({ title: 42 })
    assert.equal(res.status, 422)
    assert.ok(res.body.errors.title)
  })

  it('sets avatar and bgImage to paths of files the user uploaded, with their URLs computed', async () => {
    const { user, patch } = await page()
    const avatar = await addFile(user)
    const bgImage = await addFile(user)
    const res = await patch({ avatar, bgImage })
    assert.equal(res.status, 200)
    assert.equal(res.body.data.avatar, avatar)
    assert.equal(res.body.data.bgImage, bgImage)
    assert.equal(res.body.data.computed.avatarUrl, `${t.ctx.config.publicUrl}/static/${avatar}`)
    assert.equal(res.body.data.computed.bgImageUrl, `${t.ctx.config.publicUrl}/static/${bgImage}`)
  })

  it("refuses paths that are not the user's uploads: unknown, another user's, or a URL", async () => {
    const { patch } = await page()
    const theirs = await addFile(await makeUser(t))
    for (const [avatar, pattern] of [
      ['u0/none.webp', /upload the image with POST \/files/],
      [theirs, /upload the image with POST \/files/],
      ['https://example.com/me.png', /not a URL/],
    ] as const) {
      const res = await patch({ avatar, bgImage: avatar })
      assert.equal(res.status, 422, avatar)
      assert.deepEqual(Object.keys(res.body.errors).sort(), ['avatar', 'bgImage'])
      assert.match(res.body.errors.avatar[0], pattern)
    }
  })

  it('accepts image paths of 1024 characters and refuses 1025', async () => {
    const { user, patch } = await page()
    const long = await addFile(user, `u${user.id}/`.padEnd(1019, 'a') + '.webp')
    assert.equal(long.length, 1024)
    assert.equal((await patch({ avatar: long, bgImage: long })).status, 200)
    const res = await patch({ avatar: `${long}x`, bgImage: `${long}x` })
    assert.equal(res.status, 422)
    assert.deepEqual(res.body.errors, { avatar: ['Must be at most 1024 characters.'], bgImage: ['Must be at most 1024 characters.'] })
  })

  it('keeps an image already on the page when the profile is sent back as read', async () => {
    const { user, patch } = await page()
    const avatar = await addFile(user)
    const read = (await patch({ avatar, socials: [{ link: 'instagram.com/jane' }] })).body.data
    const res = await patch({ title: read.title, description: read.description, avatar: read.avatar, bgImage: read.bgImage, socials: read.socials })
    assert.equal(res.status, 200, res.text)
    assert.deepEqual(res.body.data, read)
  })

  it('normalises social links, derives their icons and lists them by order', async () => {
    const { patch } = await page()
    const res = await patch({
      socials: [
        { link: 'instagram.com/jane', order: 2 },
        { link: 'mailto:jane@example.com', order: 0 },
        { link: 'https://example.com/blog', order: 1 },
        { link: 'tel:+1 555 123 4567', order: 3 },
      ],
    })
    assert.equal(res.status, 200, res.text)
    assert.deepEqual(res.body.data.socials, [
      { link: 'mailto:jane@example.com', order: 0 },
      { link: 'https://example.com/blog', order: 1 },
      { link: 'https://instagram.com/jane', order: 2 },
      { link: 'tel:+15551234567', order: 3 },
    ])
    assert.deepEqual(res.body.data.computed.socials, [{ icon: 'email' }, { icon: 'link' }, { icon: 'instagram' }, { icon: 'phone' }])
  })

  it('defaults a missing order to the index and replaces the whole row; [] removes every social', async () => {
    const { patch } = await page()
    await patch({ socials: [{ link: 'github.com/a' }, { link: 'x.com/b' }, { link: 'youtube.com/c' }] })
    const res = await patch({ socials: [{ link: 't.me/jane' }, { link: 'twitch.tv/jane' }] })
    assert.deepEqual(res.body.data.socials, [
      { link: 'https://t.me/jane', order: 0 },
      { link: 'https://twitch.tv/jane', order: 1 },
    ])
    assert.deepEqual(res.body.data.computed.socials, [{ icon: 'telegram' }, { icon: 'twitch' }])
    const cleared = await patch({ socials: [] })
    assert.deepEqual([cleared.body.data.socials, cleared.body.data.computed.socials], [[], []])
  })

  it('refuses socials carrying an icon or any other key with 422 naming each', async () => {
    const { patch, profile } = await page()
    const res = await patch({
      socials: [
        { link: 'instagram.com/jane', order: 0 },
        { link: 'github.com/jane', order: 1, icon: 'github' },
        { link: 'x.com/jane', order: 2, icon: 'x', label: 'X' },
      ],
    })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['socials.1.icon', 'socials.2.icon', 'socials.2.label'])
    assert.deepEqual((await profilesRepository.findById(t.ctx.db, profile.id))!.socials, [])
  })

  it('refuses a social link with a forbidden scheme or no address, naming socials.<index>.link', async () => {
    const { patch } = await page()
    const res = await patch({ socials: [{ link: 'github.com/jane' }, { link: 'javascript:alert(1)' }, { link: 'ftp://example.com' }, { link: 'instagram' }] })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['socials.1.link', 'socials.2.link', 'socials.3.link'])
    assert.match(res.body.errors['socials.1.link'][0], /http, https, mailto, tel, whatsapp/)
    const empty = await patch({ socials: [{ link: '' }] })
    assert.deepEqual(empty.body.errors, { 'socials.0.link': ['Must not be empty.'] })
  })

  it('accepts socials sharing an order: they keep the order sent and are stored under distinct orders', async () => {
    const { profile, patch } = await page()
    const res = await patch({
      socials: [
        { link: 'github.com/a', order: 1 },
        { link: 'x.com/b', order: 1 },
        { link: 'youtube.com/c', order: 2 },
        { link: 't.me/d', order: 0 },
        { link: 'twitch.tv/e', order: 7 },
      ],
    })
    assert.equal(res.status, 200, res.text)
    const stored = [
      { link: 'https://t.me/d', order: 0 },
      { link: 'https://github.com/a', order: 1 },
      { link: 'https://x.com/b', order: 2 },
      { link: 'https://youtube.com/c', order: 3 },
      { link: 'https://twitch.tv/e', order: 7 },
    ]
    assert.deepEqual(res.body.data.socials, stored)
    assert.deepEqual(res.body.data.computed.socials, [{ icon: 'telegram' }, { icon: 'github' }, { icon: 'x' }, { icon: 'youtube' }, { icon: 'twitch' }])
    const again = await patch({ socials: res.body.data.socials })
    assert.deepEqual(again.body.data.socials, stored)
    // The click redirect names a social by its order: each must lead to its own link.
    for (const social of stored) {
      const go = await t.request('GET', `/-/go/${profile.id}/s${social.order}`)
      assert.deepEqual([go.status, go.headers.location], [302, social.link])
    }
    // A tie at the top of the range would be pushed past it: the row is numbered by position instead.
    const top = await patch({
      socials: [
        { link: 'github.com/a', order: 999_999_999 },
        { link: 'x.com/b', order: 999_999_999 },
      ],
    })
    assert.deepEqual(top.body.data.socials, [
      { link: 'https://github.com/a', order: 0 },
      { link: 'https://x.com/b', order: 1 },
    ])
    // Past the range the click address could not carry the order: 422 naming the field.
    const past = await patch({ socials: [{ link: 'github.com/a', order: 1_000_000_000 }] })
    assert.equal(past.status, 422)
    assert.deepEqual(Object.keys(past.body.errors), ['socials.0.order'])
    const one = await patch({ socials: [{ link: 'github.com/a', order: 999_999_999 }] })
    const go = await t.request('GET', `/-/go/${profile.id}/s999999999`)
    assert.deepEqual([one.status, go.status, go.headers.location], [200, 302, 'https://github.com/a'])
  })

  it('accepts 30 socials and refuses 31', async () => {
    const { patch } = await page()
    const socials = (n: number) => Array.from({ length: n }, (_, i) => ({ link: `example.com/${i}`, order: i }))
    const ok = await patch({ socials: socials(30) })
    assert.equal(ok.status, 200)
    assert.equal(ok.body.data.computed.socials.length, 30)
    const res = await patch({ socials: socials(31) })
    assert.equal(res.status, 422)
    assert.deepEqual(res.body.errors, { socials: ['Must have at most 30 items.'] })
  })

  it('refuses fields the API does not accept, such as login and themeId', async () => {
    const { patch } = await page()
    const res = await patch({ login: 'elsewhere', themeId: 2, computed: {} })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['computed', 'login', 'themeId'])
  })

  it('reports every problem at once and stores nothing', async () => {
    const { patch, profile } = await page()
    const res = await patch({
      title: 't'.repeat(201),
      avatar: 'u0/missing.webp',
      socials: [{ link: 'a.com' }, { link: 'b.com' }, { link: 'c.com', icon: 'link' }],
    })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['socials.2.icon', 'title'])
    const avatarOnly = await patch({ title: 'New', avatar: 'u0/missing.webp', socials: [{ link: 'javascript:x' }] })
    assert.deepEqual(Object.keys(avatarOnly.body.errors).sort(), ['avatar', 'socials.0.link'])
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))!.title, null)
  })

  it('validates without storing under Precognition: true', async () => {
    const { patch, profile } = await page()
    const headers = { precognition: 'true' }
    const ok = await patch({ title: 'Dry run' }, headers)
    assert.equal(ok.status, 204)
    assert.equal(ok.text, '')
    const bad = await patch({ title: 't'.repeat(201) }, headers)
    assert.equal(bad.status, 422)
    assert.ok(bad.body.errors.title)
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))!.title, null)
  })

  it('replays a repeated Idempotency-Key and refuses the key with another body', async () => {
    const { patch } = await page()
    const headers = { 'idempotency-key': `patch-${seq++}` }
    const first = await patch({ title: 'Once' }, headers)
    const again = await patch({ title: 'Once' }, headers)
    assert.equal(again.status, 200)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.deepEqual(again.body, first.body)
    const other = await patch({ title: 'Twice' }, headers)
    assert.equal(other.status, 422)
    assert.equal(other.body.code, 'idempotency_mismatch')
  })

  it('addresses the page by login as well as by id', async () => {
    const { patch, profile } = await page()
    const res = await patch({ title: 'By login' }, undefined, profile.login)
    assert.equal(res.status, 200)
    assert.equal(res.body.data.id, profile.id)
  })

  it("answers 404 for another account's profile, by id and by login, and changes nothing", async () => {
    const theirs = await makeProfile(t, await makeUser(t))
    const { token } = await makeAccount(t)
    for (const key of [String(theirs.id), theirs.login]) {
      const res = await t.request('PATCH', `/v1/profiles/${key}`, { token, body: { title: 'Mine now' } })
      assert.equal(res.status, 404)
      assert.equal(res.body.code, 'not_found')
    }
    assert.equal((await profilesRepository.findById(t.ctx.db, theirs.id))!.title, null)
  })

  it('refuses a request without a token with 401', async () => {
    const { profile } = await page()
    assert.equal((await t.request('PATCH', `/v1/profiles/${profile.id}`, { body: { title: 'x' } })).status, 401)
  })

  it('refuses a read-only token with 403', async () => {
    const { user, profile } = await page()
    const res = await t.request('PATCH', `/v1/profiles/${profile.id}`, { token: await readOnlyToken(user), body: { title: 'x' } })
    assert.equal(res.status, 403)
  })
})

describe(`GET /openapi.json: the profile operations (${STORE})`, () => {
  it('documents every profile row in the spec order, each with a summary and a description', async () => {
    const { token } = await makeAccount(t)
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).body
    const ops = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/profiles'))
      .flatMap(([path, methods]: [string, any]) => Object.entries(methods).map(([m, op]: [string, any]) => ({ key: `${m.toUpperCase()} ${path}`, op })))
    const mine = [
      'GET /profiles',
      'POST /profiles',
      'GET /profiles/check-login',
      'GET /profiles/{profileKey}',
      'PATCH /profiles/{profileKey}',
      'GET /profiles/{profileKey}/settings',
      'PATCH /profiles/{profileKey}/settings',
    ]
    const keys = ops.map((o) => o.key)
    assert.deepEqual(
      keys.filter((k) => mine.includes(k)),
      mine,
    )
    for (const { key, op } of ops.filter((o) => mine.includes(o.key) && o.key !== 'GET /profiles/{profileKey}')) {
      assert.ok(op.summary, `${key} summary`)
      assert.ok(op.description && op.description.length > 40, `${key} description`)
    }
  })

  it('documents the update payload with its bounds and an example, and 404 on check-login', async () => {
    const { token } = await makeAccount(t)
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).body
    const patch = doc.paths['/profiles/{profileKey}'].patch
    const body = patch.requestBody.content['application/json'].schema
    assert.equal(patch.requestBody.required, false)
    assert.ok(body.examples?.length)
    assert.equal(body.additionalProperties, false)
    assert.equal(body.properties.socials.maxItems, 30)
    assert.equal(body.properties.socials.items.additionalProperties, false)
    const settings = doc.paths['/profiles/{profileKey}/settings']
    assert.ok(settings.get.responses['200'].content['application/json'].schema.properties.data.examples?.length)
    assert.ok(settings.patch.requestBody.content['application/json'].schema.examples?.length)
    const check = doc.paths['/profiles/check-login'].get
    assert.ok(check.responses['404'])
    assert.deepEqual(
      check.parameters.map((p: any) => [p.name, p.in, p.required]),
      [
        ['login', 'query', true],
        ['profile', 'query', false],
      ],
    )
  })
})
