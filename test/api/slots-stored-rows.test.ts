import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { insertRawSlot } from '../helpers/slots.ts'

// Rows written around the API (an old release, a migration, a hand edit) hold whatever JSON
// they hold. Every face reads them through the one presenter, which never throws on a row.
describe(`stored rows a slot type cannot read (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  async function pageWithBadRows() {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const good = await insertRawSlot(t, profile, 'divider', {})
    const bad = [
      await insertRawSlot(t, profile, 'button', { title: 'No link' }),
      await insertRawSlot(t, profile, 'gallery', { title: 'No items' }),
      await insertRawSlot(t, profile, 'music', { links: 'not a list' }),
      await insertRawSlot(t, profile, 'youtube', 'a string, not an object'),
    ]
    return { token, profile, good, bad }
  }

  it('GET …/slots answers 200, each unreadable row as supported: false with a message naming what can be done', async () => {
    const { token, profile, good, bad } = await pageWithBadRows()
    const res = await t.request('GET', `/v1/profiles/${profile.id}/slots`, { token })
    assert.equal(res.status, 200, res.text)
    const byId = new Map(res.body.data.map((s: any) => [s.id, s]))
    assert.equal((byId.get(good.id) as any).supported, true)
    for (const row of bad) {
      const slot = byId.get(row.id) as any
      assert.equal(slot.supported, false, row.type)
      assert.equal(slot.type, row.type)
      assert.deepEqual(slot.computed, {})
      assert.match(slot.message, new RegExp(`PATCH …/slots/${row.id}, or delete it`))
    }
  })

  it('reads one such slot, the profile with include=slots and the page as markdown without an error', async () => {
    const { token, profile, bad } = await pageWithBadRows()
    const one = await t.request('GET', `/v1/profiles/${profile.id}/slots/${bad[0].id}`, { token })
    assert.equal(one.status, 200, one.text)
    assert.equal(one.body.data.supported, false)
    const withSlots = await t.request('GET', `/v1/profiles/${profile.id}?include=slots`, { token })
    assert.equal(withSlots.status, 200, withSlots.text)
    assert.equal(withSlots.body.data.slots.length, 5)
    const markdown = await t.request('GET', `/v1/profiles/${profile.id}/markdown`, { token })
    assert.equal(markdown.status, 200, markdown.text)
    assert.match(markdown.text, /button \(slot \d+, unsupported\)/)
  })

  it('serves the public page and the page analytics, leaving the unreadable blocks out of the page', async () => {
    const { token, profile, bad } = await pageWithBadRows()
    const html = await fetch(`${t.url}/${profile.login}`)
    assert.equal(html.status, 200)
    const text = await html.text()
    for (const row of bad) assert.doesNotMatch(text, new RegExp(`data-slot-id="${row.id}"`))
    const analytics = await t.request('GET', `/v1/profiles/${profile.id}/analytics`, { token })
    assert.equal(analytics.status, 200, analytics.text)
    assert.equal(analytics.body.data.blocks.length, 5)
  })

  it('lets the owner repair such a slot by sending its data again', async () => {
    const { token, profile, bad } = await pageWithBadRows()
    const res = await t.request('PATCH', `/v1/profiles/${profile.id}/slots/${bad[0].id}`, { token, body: { data: { link: 'example.com/shop' } } })
    assert.equal(res.status, 200, res.text)
    assert.equal(res.body.data.supported, true)
    assert.equal(res.body.data.computed.url, 'https://example.com/shop')
  })
})
