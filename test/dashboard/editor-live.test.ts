import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, registeredVisitor, type Visitor } from '../helpers/dashboard.ts'

// The editor's live preview (a save run as a dry run, answered as the rendered page), its block
// picker, show/hide/schedule on a block's card, and the theme and address inside the editor:
// all plain form posts, as a browser without the script sends them.

describe(`page editor: live preview, picker, visibility, theme and address (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  let n = 0
  const unique = () => `live_${Date.now().toString(36)}${n++}`

  async function withPage() {
    const { v, user } = await registeredVisitor(t)
    const login = unique()
    assert.equal((await v.submit('/my-links', { login })).status, 303)
    const [profile] = await profilesRepository.listByUser(t.ctx.db, user.id)
    const token = await makeToken(t, user)
    return { v, user, login, profile, editor: `/my-links/${profile.id}/editor`, token }
  }

  async function post(v: Visitor, page: string, action: string, fields: Record<string, string>) {
    const shown = await v.get(page)
    const res = await fetch(new URL(action, t.url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: [...v.cookies].map(([k, x]) => `${k}=${x}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrfOf(shown.text), ...fields }).toString(),
    })
    return { status: res.status, location: res.headers.get('location'), text: await res.text(), headers: res.headers }
  }

  const slotsOf = async (token: string, login: string) => (await t.request('GET', `/v1/profiles/${login}/slots`, { token })).body.data as any[]

  it('previews a new block and a new name as the public renderer draws them, and stores nothing', async () => {
    const { v, editor, token, login } = await withPage()
    const block = await post(v, `${editor}?add=button`, `${editor}/blocks?preview=1`, {
      type: 'button',
      'data.title': 'Kiln opening',
      'data.link': 'example.com',
      'data.style': 'primary',
    })
    assert.equal(block.status, 200)
    assert.match(block.headers.get('content-type') ?? '', /text\/html/)
    assert.match(block.headers.get('content-security-policy') ?? '', /frame-ancestors 'self'/)
    assert.match(block.text, /Kiln opening/)
    assert.equal((await slotsOf(token, login)).length, 0, 'the preview stored nothing')

    const named = await post(v, editor, `${editor}/profile?preview=1`, { title: 'Mara Lind Ceramics', description: '', language: '' })
    assert.equal(named.status, 200)
    assert.match(named.text, /Mara Lind Ceramics/)
    const profile = (await t.request('GET', `/v1/profiles/${login}`, { token })).body.data
    assert.equal(profile.title, null, 'the name is not saved by a preview')
  })

  it('answers 204 to the preview of a draft that does not save yet, so the frame keeps its page', async () => {
    const { v, editor } = await withPage()
    const res = await post(v, `${editor}?add=youtube`, `${editor}/blocks?preview=1`, { type: 'youtube', 'data.link': 'https://example.com/not-a-video' })
    assert.equal(res.status, 204)
  })

  it('previews a theme before it is chosen, and chooses it back in the editor', async () => {
    const { v, editor, profile } = await withPage()
    const before = (await profilesRepository.findById(t.ctx.db, profile.id))!.themeId
    const other = before === 1 ? 2 : 1
    const look = await post(v, editor, `${editor}/theme?preview=1`, { themeId: String(other) })
    assert.equal(look.status, 200)
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))!.themeId, before)
    const chosen = await post(v, editor, `${editor}/theme`, { themeId: String(other) })
    assert.equal(chosen.status, 303)
    assert.match(chosen.location ?? '', /\/editor#theme-h$/)
    assert.equal((await profilesRepository.findById(t.ctx.db, profile.id))!.themeId, other)
    const page = await v.get(editor)
    assert.match(page.text, new RegExp(`name="themeId" value="${other}"[^>]*checked`))
  })

  it('offers every type in the picker, each named with its line of plain words', async () => {
    const { v, editor } = await withPage()
    const page = await v.get(`${editor}?pick=1`)
    const types = [...page.text.matchAll(/<button type="submit" class="ed-type-choice" name="add" value="([a-z]+)"/g)].map((m) => m[1])
    assert.deepEqual(types.sort(), ['button', 'divider', 'event', 'faq', 'form', 'gallery', 'music', 'picture', 'text', 'youtube'])
    assert.match(page.text, /A thin line to separate parts of your page\./)
    const divider = await post(v, `${editor}?add=divider`, `${editor}/blocks`, { type: 'divider' })
    assert.equal(divider.status, 303)
  })

  it('hides, shows and schedules a block from its card, with the API’s rules, in the owner’s time zone', async () => {
    const { v, editor, token, login } = await withPage()
    assert.equal(
      (await post(v, `${editor}?add=button`, `${editor}/blocks`, { type: 'button', 'data.title': 'Shop', 'data.link': 'example.com', 'data.style': 'primary' }))
        .status,
      303,
    )
    const [slot] = await slotsOf(token, login)
    const vis = `${editor}/blocks/${slot.id}/visibility`

    assert.equal((await post(v, editor, vis, { op: 'hide' })).status, 303)
    assert.equal((await slotsOf(token, login))[0].visibility.hidden, true)
    assert.match((await v.get(editor)).text, /class="ed-state off">Hidden</)
    assert.doesNotMatch((await t.request('GET', `/${login}`)).text, /Shop/)
    assert.equal((await post(v, editor, vis, { op: 'show' })).status, 303)
    assert.equal((await slotsOf(token, login))[0].visibility.hidden, false)

    const refused = await post(v, `${editor}?schedule=${slot.id}`, vis, { op: 'schedule', startsAt: '2030-12-12T09:00', endsAt: '2030-12-01T09:00' })
    assert.equal(refused.status, 422)
    assert.match(refused.text, /Must be later than “Show from”/)
    assert.match(refused.text, /value="2030-12-12T09:00"/, 'what was typed is kept')
    assert.equal((await slotsOf(token, login))[0].visibility.startsAt, null)

    assert.equal((await post(v, editor, vis, { op: 'schedule', startsAt: '2030-12-12T09:00', endsAt: '' })).status, 303)
    const scheduled = (await slotsOf(token, login))[0].visibility
    assert.deepEqual(scheduled, { hidden: false, startsAt: '2030-12-12T09:00', endsAt: null })
    assert.match((await v.get(editor)).text, /class="ed-state off">Shows from 12 Dec, 09:00</)
    assert.doesNotMatch((await t.request('GET', `/${login}`)).text, /Shop/)

    assert.equal((await post(v, editor, vis, { op: 'schedule', startsAt: '2020-01-01T09:00', endsAt: '2020-02-01T09:00' })).status, 303)
    assert.match((await v.get(editor)).text, /class="ed-state off">Ended</)
    assert.equal((await post(v, editor, vis, { op: 'clear' })).status, 303)
    assert.deepEqual((await slotsOf(token, login))[0].visibility, { hidden: false, startsAt: null, endsAt: null })
  })

  it('changes the page address inside the editor only once the person confirms', async () => {
    const { v, editor, token, login } = await withPage()
    const next = unique()
    const unconfirmed = await post(v, editor, `${editor}/address`, { login: next })
    assert.equal(unconfirmed.status, 422)
    assert.match(unconfirmed.text, /Tick the box/)
    const moved = await post(v, editor, `${editor}/address`, { login: next, understood: 'yes' })
    assert.equal(moved.status, 303)
    assert.equal((await t.request('GET', `/v1/profiles/${next}`, { token })).status, 200)
    assert.equal((await t.request('GET', `/v1/profiles/${login}`, { token })).status, 404)
  })
})
