import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { filesRepository } from '../../src/store/files.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, registeredVisitor, Visitor } from '../helpers/dashboard.ts'
import { BROWSER_UA, uploadImage } from '../pages/page-fixtures.ts'

describe(`dashboard /my-links (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  const signedIn = () => registeredVisitor(t)

  const unique = () => `pg_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

  it('sends a signed-out visitor to sign in first, for every page', async () => {
    for (const path of ['/my-links', '/my-links/1', '/my-links/1/qr.svg', '/my-links/check-login?login=abcd']) {
      const res = await Visitor.of(t).get(path)
      assert.equal(res.status, 303, path)
      assert.equal(res.location, `/login?next=${encodeURIComponent(path)}`)
    }
  })

  describe('POST /my-links', () => {
    it('creates a page and shows it with its address', async () => {
      const { v, user } = await signedIn()
      const login = unique()
      const res = await v.submit('/my-links', { login })
      assert.equal(res.status, 303)
      const [profile] = await profilesRepository.listByUser(t.ctx.db, user.id)
      assert.equal(res.location, `/my-links/${profile.id}`)
      assert.equal(profile.login, login)
      assert.equal((await fetch(`${t.url}/${login}`)).status, 200)
      const page = await v.get(res.location!)
      assert.match(page.text, /Your page is ready at/)
      const list = await v.get('/my-links')
      assert.ok(list.text.includes(`href="${t.url}/${login}"`))
      assert.match(list.text, /0 views/)
    })

    it('creates a page with a digits-only login, which the spec allows', async () => {
      const { v, user } = await signedIn()
      const login = `${Date.now()}${Math.floor(Math.random() * 1000)}`
      const res = await v.submit('/my-links', { login })
      assert.equal(res.status, 303)
      const [profile] = await profilesRepository.listByUser(t.ctx.db, user.id)
      assert.equal(profile.login, login)
      assert.equal((await fetch(`${t.url}/${login}`)).status, 200)
    })

    for (const [login, reason] of [
      ['settings', /is reserved and cannot be used/],
      ['ab', /An address is 4 to 60 characters long/],
      ['with space', /only letters, digits, dots and underscores/],
    ] as const) {
      it(`refuses ${JSON.stringify(login)} with the reason in words, keeping what was typed`, async () => {
        const { v, user } = await signedIn()
        const res = await v.submit('/my-links', { login })
        assert.equal(res.status, 422)
        assert.match(res.text, reason)
        assert.ok(res.text.includes(`value="${login}"`))
        assert.equal((await profilesRepository.listByUser(t.ctx.db, user.id)).length, 0)
      })
    }

    it('refuses a taken login', async () => {
      const other = await makeUser(t)
      const taken = await makeProfile(t, other)
      const { v } = await signedIn()
      const res = await v.submit('/my-links', { login: taken.login.toUpperCase() })
      assert.equal(res.status, 422)
      assert.match(res.text, /is already taken/)
    })
  })

  describe('GET /my-links/check-login', () => {
    it('answers the API check’s verdicts, with reasons in words', async () => {
      const { v, user } = await signedIn()
      const mine = await makeProfile(t, user)
      const check = async (q: string) => JSON.parse((await v.get(`/my-links/check-login?${q}`)).text)
      assert.deepEqual(await check(`login=${unique()}`).then((r) => [r.available, r.reason]), [true, null])
      assert.deepEqual(await check('login=register').then((r) => [r.available, r.reason]), [false, 'reserved'])
      assert.deepEqual(await check('login=a').then((r) => [r.available, r.reason]), [false, 'invalid'])
      const taken = await check(`login=${mine.login}`)
      assert.deepEqual([taken.available, taken.reason], [false, 'taken'])
      assert.match(taken.message, /already taken/)
      assert.equal((await check(`login=${mine.login}&profile=${mine.id}`)).available, true)
    })

    it("answers 404 for another account's page", async () => {
      const other = await makeProfile(t, await makeUser(t))
      const { v } = await signedIn()
      assert.equal((await v.get(`/my-links/check-login?login=abcd&profile=${other.id}`)).status, 404)
    })
  })

  describe('GET /my-links/:profileId', () => {
    it('shows 28 days of views and clicks as an SVG chart and the top blocks as bars', async () => {
      const { v, user } = await signedIn()
      const profile = await makeProfile(t, user)
      const token = await makeToken(t, user)
      const slots = []
      for (const title of ['<b>Shop</b>', 'Blog', 'Quiet']) {
        const res = await t.request('POST', `/v1/profiles/${profile.id}/slots`, { token, body: { type: 'button', data: { title, link: 'example.com' } } })
        slots.push(res.body.data.id)
      }
      const intake = t.ctx.intake
      for (let i = 0; i < 3; i++) intake.view({ profileId: profile.id, ip: `10.0.0.${i}`, userAgent: BROWSER_UA })
      for (let i = 0; i < 2; i++) intake.click({ profileId: profile.id, slotId: slots[0], socialIndex: null, ip: `10.0.0.${i}`, userAgent: BROWSER_UA })
      intake.click({ profileId: profile.id, slotId: slots[1], socialIndex: null, ip: '10.0.0.9', userAgent: BROWSER_UA })
      await intake.flush()
      const page = await v.get(`/my-links/${profile.id}`)
      assert.equal(page.status, 200)
      assert.match(page.text, /<svg class="chart"[^>]*role="img"/)
      assert.match(page.text, /3 views and 3 clicks in all/)
      assert.equal((page.text.match(/<rect [^>]*class="v"/g) ?? []).length, 28)
      const bars = page.text.slice(page.text.indexOf('<ol class="bars">'))
      assert.ok(bars.indexOf('&lt;b&gt;Shop&lt;/b&gt;') < bars.indexOf('Blog'), 'most clicked first, title as text')
      assert.match(bars, /2 clicks/)
      assert.doesNotMatch(bars.slice(0, bars.indexOf('</ol>')), /Quiet/)
      const list = await v.get('/my-links')
      assert.match(list.text, /3 views<\/span><span>3 clicks/)
    })

    it('shows a title with HTML as text', async () => {
      const { v, user } = await signedIn()
      const profile = await makeProfile(t, user)
      await profilesRepository.update(t.ctx.db, profile.id, { title: '<img src=x onerror=alert(1)>' })
      for (const path of ['/my-links', `/my-links/${profile.id}`]) {
        const res = await v.get(path)
        assert.match(res.text, /&lt;img src=x onerror=alert\(1\)&gt;/)
        assert.doesNotMatch(res.text, /<img src=x/)
      }
    })

    it("answers 404 for another account's page, its QR codes and its forms, changing nothing", async () => {
      const owner = await makeUser(t)
      const theirs = await makeProfile(t, owner)
      const { v } = await signedIn()
      for (const path of [`/my-links/${theirs.id}`, `/my-links/${theirs.id}/qr.svg`, `/my-links/${theirs.id}/qr.png`, '/my-links/999999999', '/my-links/abc']) {
        assert.equal((await v.get(path)).status, 404, path)
      }
      const csrf = csrfOf((await v.get('/my-links')).text)
      assert.equal((await v.post(`/my-links/${theirs.id}/delete`, { _csrf: csrf, confirmLogin: theirs.login })).status, 404)
      assert.equal((await v.post(`/my-links/${theirs.id}/login`, { _csrf: csrf, login: unique(), understood: 'yes' })).status, 404)
      assert.equal((await profilesRepository.findById(t.ctx.db, theirs.id))?.login, theirs.login)
    })
  })

  it('serves the QR code as SVG and PNG, as a download when asked', async () => {
    const { v, user } = await signedIn()
    const profile = await makeProfile(t, user)
    const svg = await v.get(`/my-links/${profile.id}/qr.svg`)
    assert.equal(svg.status, 200)
    assert.match(svg.headers.get('content-type')!, /^image\/svg\+xml/)
    assert.match(svg.text, /^<svg/)
    const png = await fetch(`${t.url}/my-links/${profile.id}/qr.png?download=1`, {
      headers: { cookie: `slotline_session=${v.cookies.get('slotline_session')}` },
    })
    assert.equal(png.headers.get('content-type'), 'image/png')
    assert.equal(png.headers.get('content-disposition'), `attachment; filename="${profile.login}-qr.png"`)
    const bytes = Buffer.from(await png.arrayBuffer())
    assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47])
  })

  describe('POST /my-links/:profileId/login', () => {
    it('needs the confirmation box, then moves the page: the old address is 404 at once', async () => {
      const { v, user } = await signedIn()
      const profile = await makeProfile(t, user)
      // Served once, so the page cache holds the old address.
      assert.equal((await fetch(`${t.url}/${profile.login}`)).status, 200)
      const next = unique()
      const refused = await v.submit(`/my-links/${profile.id}`, { login: next }, `/my-links/${profile.id}/login`)
      assert.equal(refused.status, 422)
      assert.match(refused.text, /id="f-understood-error">Tick the box/)
      assert.ok(refused.text.includes(`value="${next}"`))
      assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))?.login, profile.login)
      const res = await v.submit(`/my-links/${profile.id}`, { login: next, understood: 'yes' }, `/my-links/${profile.id}/login`)
      assert.equal(res.status, 303)
      assert.equal((await fetch(`${t.url}/${profile.login}`)).status, 404)
      assert.equal((await fetch(`${t.url}/${next}`)).status, 200)
      assert.match((await v.get(`/my-links/${profile.id}`)).text, /The old address no longer works/)
    })

    it('refuses a reserved login with the reason', async () => {
      const { v, user } = await signedIn()
      const profile = await makeProfile(t, user)
      const res = await v.submit(`/my-links/${profile.id}`, { login: 'my-links', understood: 'yes' }, `/my-links/${profile.id}/login`)
      assert.equal(res.status, 422)
      assert.match(res.text, /only letters, digits, dots and underscores|is reserved/)
    })
  })

  describe('POST /my-links/:profileId/delete', () => {
    it('refuses without the typed login, and without the CSRF token, changing nothing', async () => {
      const { v, user } = await signedIn()
      const profile = await makeProfile(t, user)
      const wrong = await v.submit(`/my-links/${profile.id}`, { confirmLogin: 'something else' }, `/my-links/${profile.id}/delete`)
      assert.equal(wrong.status, 422)
      assert.match(wrong.text, new RegExp(`Type the page&#39;s address, ${profile.login}, to confirm`))
      assert.equal((await v.post(`/my-links/${profile.id}/delete`, { confirmLogin: profile.login })).status, 403)
      assert.ok(await profilesRepository.findById(t.ctx.db, profile.id))
    })

    it('deletes the page, its slots, its analytics and the files no other page uses; the address is 404 at once', async () => {
      const { v, user } = await signedIn()
      const token = await makeToken(t, user)
      const doomed = await makeProfile(t, user)
      const kept = await makeProfile(t, user)
      const own = await uploadImage(t, user, 40, 40, '#000000', '#ffffff')
      const shared = await uploadImage(t, user, 40, 40, '#ff0000', '#00ff00')
      const unrelated = await uploadImage(t, user, 40, 40, '#0000ff', '#00ffff')
      await t.request('PATCH', `/v1/profiles/${doomed.id}`, { token, body: { avatar: shared.path } })
      await t.request('PATCH', `/v1/profiles/${kept.id}`, { token, body: { avatar: shared.path } })
      const slot = await t.request('POST', `/v1/profiles/${doomed.id}/slots`, { token, body: { type: 'picture', data: { path: own.path } } })
      assert.equal(slot.status, 201, slot.text)
      const intake = t.ctx.intake
      intake.view({ profileId: doomed.id, ip: '10.1.0.1', userAgent: BROWSER_UA })
      await intake.flush()
      assert.equal((await fetch(`${t.url}/${doomed.login}`)).status, 200)
      assert.equal((await fetch(own.src)).status, 200)

      const res = await v.submit(`/my-links/${doomed.id}`, { confirmLogin: doomed.login.toUpperCase() }, `/my-links/${doomed.id}/delete`)
      assert.equal(res.status, 303)
      assert.equal(res.location, '/my-links')
      assert.match((await v.get('/my-links')).text, /is deleted/)
      assert.equal((await fetch(`${t.url}/${doomed.login}`)).status, 404)
      assert.equal(await profilesRepository.findById(t.ctx.db, doomed.id), undefined)
      const db = t.ctx.db
      assert.equal((await db.selectFrom('slots').select('id').where('profile_id', '=', doomed.id).execute()).length, 0)
      assert.equal((await db.selectFrom('analytics_daily').select('day').where('profile_id', '=', doomed.id).execute()).length, 0)
      assert.equal(await filesRepository.findByPath(db, own.path), undefined)
      assert.equal((await fetch(own.src)).status, 404)
      assert.ok(await filesRepository.findByPath(db, shared.path))
      assert.ok(await filesRepository.findByPath(db, unrelated.path))
      // The remaining page becomes the main one.
      assert.equal((await profilesRepository.findById(db, kept.id))?.isMain, true)
    })
  })
})
