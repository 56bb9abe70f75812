import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { THEMES } from '../../src/profiles/design-tokens.ts'
import { pageStyle } from '../../src/rendering/theme.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { usersRepository } from '../../src/store/users.ts'
import { makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { freshEmail, Visitor } from '../helpers/dashboard.ts'

describe(`dashboard theme picker (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  async function owner() {
    const v = Visitor.of(t)
    const email = freshEmail()
    await v.register({ email })
    const user = (await usersRepository.findByEmail(t.ctx.db, email))!
    return { v, user, profile: await makeProfile(t, user) }
  }

  it('shows every theme as a swatch on the page’s dashboard, the current one checked', async () => {
    const { v, profile } = await owner()
    const res = await v.get(`/my-links/${profile.id}`)
    assert.equal(res.status, 200)
    const radios = [...res.text.matchAll(/<input type="radio" name="themeId" value="(\d+)" aria-describedby="tp-\1-d"( checked)?>/g)]
    assert.deepEqual(
      radios.map((m) => Number(m[1])),
      THEMES.map((th) => th.id),
    )
    assert.deepEqual(
      radios.filter((m) => m[2]).map((m) => m[1]),
      ['1'],
    )
    for (const th of THEMES) assert.ok(res.text.includes(`href="/my-links/${profile.id}/preview/${th.id}"`), th.name)
  })

  it('switches the public page to the chosen theme at once', async () => {
    const { v, profile } = await owner()
    await fetch(`${t.url}/${profile.login}`) // fills the page cache: the change must drop it
    const res = await v.submit(`/my-links/${profile.id}`, { themeId: '6' }, `/my-links/${profile.id}/theme`)
    assert.equal(res.status, 303)
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))!.themeId, 6)
    const page = await fetch(`${t.url}/${profile.login}`)
    assert.match(await page.text(), /<main class="page theme-6/)
    assert.ok(page.headers.get('content-security-policy')!.includes(pageStyle(6).hash))
    const shown = await v.get(`/my-links/${profile.id}`)
    assert.match(shown.text, /value="6" aria-describedby="tp-6-d" checked/)
  })

  it('refuses a theme that does not exist and keeps the current one', async () => {
    const { v, profile } = await owner()
    const res = await v.submit(`/my-links/${profile.id}`, { themeId: '999' }, `/my-links/${profile.id}/theme`)
    assert.equal(res.status, 303)
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))!.themeId, 1)
  })

  it('previews the owner’s page in another theme without changing or caching it', async () => {
    const { v, profile } = await owner()
    const res = await v.get(`/my-links/${profile.id}/preview/9`)
    assert.equal(res.status, 200)
    assert.match(res.text, /<main class="page theme-9/)
    assert.equal(res.headers.get('cache-control'), 'private, no-store')
    assert.ok(res.headers.get('content-security-policy')!.includes(pageStyle(9).hash))
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))!.themeId, 1)
    assert.match(await (await fetch(`${t.url}/${profile.login}`)).text(), /<main class="page theme-1/)
  })

  it('answers 404 for another account’s page, to picker and preview alike', async () => {
    const { v } = await owner()
    const foreign = await makeProfile(t, await makeUser(t))
    assert.equal((await v.get(`/my-links/${foreign.id}/preview/2`)).status, 404)
    const res = await v.submit('/my-links', { themeId: '2' }, `/my-links/${foreign.id}/theme`)
    assert.equal(res.status, 404)
    assert.equal((await profilesRepository.findById(t.ctx.db, foreign.id))!.themeId, 1)
  })
})
