import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { eventsRepository } from '../../src/store/events.ts'
import { formSubmissionsRepository } from '../../src/store/form-submissions.ts'
import { formsRepository } from '../../src/store/forms.ts'
import { slotService } from '../../src/slots/slot-service.ts'
import type { StoredProfile } from '../../src/store/profiles.ts'
import type { User } from '../../src/store/users.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { BROWSER_UA } from '../pages/page-fixtures.ts'

// issue 31: a block can be hidden, or shown only within a window, without losing its history.

let t: TestApp
before(async () => {
  t = await startApp()
})
after(() => t.close())

interface Page {
  user: User
  token: string
  profile: StoredProfile
  base: string
}

async function page(timezone = 'UTC'): Promise<Page> {
  const { user, token } = await makeAccount(t, { timezone })
  const profile = await makeProfile(t, user)
  return { user, token, profile, base: `/v1/profiles/${profile.id}/slots` }
}

const button = (title: string, extra: Record<string, unknown> = {}) => ({ type: 'button', data: { title, link: `https://example.com/${title}` }, ...extra })
const VISIBLE = { hidden: false, startsAt: null, endsAt: null }
const browser = { 'user-agent': BROWSER_UA, accept: 'text/html' }

async function create(p: Page, body: unknown) {
  const res = await t.request('POST', p.base, { token: p.token, body })
  assert.equal(res.status, 201, res.text)
  return res.body.data as { id: number; visibility: typeof VISIBLE }
}

const html = async (p: Page) => (await t.request('GET', `/${p.profile.login}`, { headers: browser })).text
const markdown = async (p: Page) => (await t.request('GET', `/${p.profile.login}`, { headers: { ...browser, accept: 'text/markdown' } })).text

/** The wall-clock time `offsetMs` from now in `timeZone`, written without an offset (YYYY-MM-DDTHH:MM:SS). */
function wallClock(timeZone: string, offsetMs: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(Date.now() + offsetMs)
  const get = (type: string) => parts.find((x) => x.type === type)!.value
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}`
}

describe(`slot visibility through the API (${STORE})`, () => {
  it('answers every slot with visibility, visible by default, and keeps what a write sends', async () => {
    const p = await page()
    assert.deepEqual((await create(p, button('plain'))).visibility, VISIBLE)
    const scheduled = await create(p, button('sale', { visibility: { startsAt: '2026-12-01T09:00', endsAt: '2026-12-24T18:00:00+01:00' } }))
    assert.deepEqual(scheduled.visibility, { hidden: false, startsAt: '2026-12-01T09:00', endsAt: '2026-12-24T18:00:00+01:00' })
    const batch = await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: [button('a', { visibility: { hidden: true } }), button('b')] } })
    assert.equal(batch.status, 201, batch.text)
    assert.deepEqual(
      batch.body.data.map((s: { visibility: unknown }) => s.visibility),
      [{ ...VISIBLE, hidden: true }, VISIBLE],
    )
    const listed = await t.request('GET', p.base, { token: p.token })
    assert.deepEqual(
      listed.body.data.map((s: { visibility: { hidden: boolean } }) => s.visibility.hidden),
      [false, false, true, false],
    )
  })

  it('refuses endsAt not after startsAt with 422 naming the field, on every kind of write', async () => {
    const p = await page()
    const bad = { startsAt: '2026-12-02T09:00', endsAt: '2026-12-01T09:00' }
    const one = await t.request('POST', p.base, { token: p.token, body: button('x', { visibility: bad }) })
    assert.equal(one.status, 422)
    assert.deepEqual(Object.keys(one.body.errors), ['visibility.endsAt'])
    const many = await t.request('POST', `${p.base}/batch`, { token: p.token, body: { slots: [button('ok'), button('x', { visibility: bad })] } })
    assert.equal(many.status, 422)
    assert.deepEqual(Object.keys(many.body.errors), ['slots.1.visibility.endsAt'])
    const slot = await create(p, button('y', { visibility: { startsAt: '2026-12-02T09:00' } }))
    // The stored startsAt and the patched endsAt are checked together.
    const patch = await t.request('PATCH', `${p.base}/${slot.id}`, { token: p.token, body: { visibility: { endsAt: '2026-12-02T08:59' } } })
    assert.equal(patch.status, 422)
    assert.deepEqual(Object.keys(patch.body.errors), ['visibility.endsAt'])
    const patchMany = await t.request('PATCH', p.base, { token: p.token, body: { slots: [{ id: slot.id, visibility: { endsAt: '2026-12-01T00:00Z' } }] } })
    assert.equal(patchMany.status, 422)
    assert.deepEqual(Object.keys(patchMany.body.errors), ['slots.0.visibility.endsAt'])
    assert.equal((await t.request('GET', p.base, { token: p.token })).body.data.length, 1, 'nothing was stored')
  })

  it('names a malformed or unknown visibility key, and a time that is not in the calendar', async () => {
    const p = await page()
    const res = await t.request('POST', p.base, { token: p.token, body: button('x', { visibility: { hidden: 'yes', startsAt: 'next week', colour: 'red' } }) })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors).sort(), ['visibility.colour', 'visibility.hidden', 'visibility.startsAt'])
    const feb30 = await t.request('POST', p.base, { token: p.token, body: button('x', { visibility: { startsAt: '2026-02-30T09:00' } }) })
    assert.equal(feb30.status, 422)
    assert.deepEqual(Object.keys(feb30.body.errors), ['visibility.startsAt'])
  })

  it('patches visibility alone, keeping the data, also on a read-only event slot; a patch of nothing is 422 naming data', async () => {
    const p = await page()
    const slot = await create(p, button('keep'))
    const res = await t.request('PATCH', `${p.base}/${slot.id}`, { token: p.token, body: { visibility: { hidden: true } } })
    assert.equal(res.status, 200, res.text)
    assert.deepEqual([res.body.data.visibility.hidden, res.body.data.data.title], [true, 'keep'])
    const e = await eventsRepository.insert(t.ctx.db, {
      userId: p.user.id,
      title: 'Gig',
      description: '',
      startsAt: '2026-05-01T20:00:00.000Z',
      endsAt: null,
      timezone: 'UTC',
      location: '',
      link: '',
    })
    const [eventSlot] = await slotService.appendManaged(t.ctx.db, p.profile, [{ type: 'event', data: { eventId: e.id } }])
    const hidden = await t.request('PATCH', `${p.base}/${eventSlot.id}`, { token: p.token, body: { visibility: { hidden: true } } })
    assert.equal(hidden.status, 200, hidden.text)
    const data = await t.request('PATCH', `${p.base}/${eventSlot.id}`, { token: p.token, body: { data: { eventId: e.id } } })
    assert.equal(data.status, 409)
    const nothing = await t.request('PATCH', `${p.base}/${slot.id}`, { token: p.token, body: {} })
    assert.equal(nothing.status, 422)
    assert.deepEqual(Object.keys(nothing.body.errors), ['data'])
  })

  it('answers a precognitive (dry run) visibility patch without storing it', async () => {
    const p = await page()
    const slot = await create(p, button('dry'))
    const res = await t.request('PATCH', `${p.base}/${slot.id}`, { token: p.token, headers: { precognition: 'true' }, body: { visibility: { hidden: true } } })
    assert.equal(res.status, 204, res.text)
    assert.equal((await t.request('GET', `${p.base}/${slot.id}`, { token: p.token })).body.data.visibility.hidden, false)
  })
})

describe(`a hidden or out-of-window block on the public page (${STORE})`, () => {
  it('is absent from the HTML and the markdown view, its click address answers 404, and its clicks stay', async () => {
    const p = await page()
    const shown = await create(p, button('shown'))
    const secret = await create(p, button('secret'))
    const go = `/-/go/${p.profile.id}/${secret.id}/0`
    assert.equal((await t.request('GET', go, { headers: browser })).status, 302)
    assert.ok((await html(p)).includes(`id="slot-${secret.id}"`))

    await t.request('PATCH', `${p.base}/${secret.id}`, { token: p.token, body: { visibility: { hidden: true } } })
    const page1 = await html(p)
    assert.ok(page1.includes(`id="slot-${shown.id}"`))
    assert.ok(!page1.includes(`id="slot-${secret.id}"`) && !page1.includes('secret'), 'the hidden block is not in the HTML')
    const md = await markdown(p)
    assert.ok(md.includes('shown') && !md.includes('secret'), md)
    assert.match(md, /### 1\. Button \(slot [0-9]+\)/)
    const owners = await t.request('GET', `/v1/profiles/${p.profile.id}/markdown`, { token: p.token })
    assert.ok(owners.text.includes(`(slot ${secret.id}, hidden)`), 'the owner’s markdown marks the hidden block')
    assert.equal((await t.request('GET', go, { headers: browser })).status, 404)

    await t.ctx.intake.flush()
    const analytics = await t.request('GET', `/v1/profiles/${p.profile.id}/analytics?period=today&compare=false`, { token: p.token })
    assert.equal(analytics.body.data.blocks.find((b: { slotId: number }) => b.slotId === secret.id)?.clicks, 1, 'the click history stays')

    await t.request('PATCH', `${p.base}/${secret.id}`, { token: p.token, body: { visibility: { hidden: false } } })
    assert.ok((await html(p)).includes(`id="slot-${secret.id}"`))
    assert.equal((await t.request('GET', go, { headers: browser })).status, 302)
  })

  it('takes no answers through a hidden form block', async () => {
    const p = await page()
    const fields = [{ name: 'name', label: 'Your name', type: 'text' as const, required: true }]
    const form = await formsRepository.insert(t.ctx.db, { userId: p.user.id, title: 'Say hello', description: '', fields, submitLabel: 'Send' })
    const [slot] = await slotService.appendManaged(t.ctx.db, p.profile, [{ type: 'form', data: { formId: form.id, view: 'inline' } }])
    const send = () =>
      fetch(`${t.url}/-/forms/${slot.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _e: '10000', _hp: '', name: 'Ada' }).toString(),
      })
    await t.request('PATCH', `${p.base}/${slot.id}`, { token: p.token, body: { visibility: { hidden: true } } })
    assert.equal((await send()).status, 404)
    assert.equal((await formSubmissionsRepository.listOfUser(t.ctx.db, p.user.id, form.id)).length, 0)
    await t.request('PATCH', `${p.base}/${slot.id}`, { token: p.token, body: { visibility: { hidden: false } } })
    assert.equal((await send()).status, 200)
  })

  it('reads a window without an offset in the owner’s time zone', async () => {
    // An hour ago in Tokyo, written without an offset: begun there, but 8 hours ahead if read as UTC.
    const tokyo = await page('Asia/Tokyo')
    const utc = await page('UTC')
    const startsAt = wallClock('Asia/Tokyo', -3_600_000)
    const a = await create(tokyo, button('tokyo', { visibility: { startsAt } }))
    const b = await create(utc, button('utc', { visibility: { startsAt } }))
    assert.ok((await html(tokyo)).includes(`id="slot-${a.id}"`))
    assert.ok(!(await html(utc)).includes(`id="slot-${b.id}"`))
    // An end an hour ahead in New York, written with New York's wall clock, is still ahead.
    const ny = await page('America/New_York')
    const c = await create(ny, button('ny', { visibility: { endsAt: wallClock('America/New_York', 3_600_000) } }))
    assert.ok((await html(ny)).includes(`id="slot-${c.id}"`))
    const ended = await create(ny, button('ended', { visibility: { endsAt: wallClock('America/New_York', -60_000) } }))
    assert.ok(!(await html(ny)).includes(`id="slot-${ended.id}"`))
    assert.equal((await t.request('GET', `/-/go/${ny.profile.id}/${ended.id}/0`, { headers: browser })).status, 404)
  })

  it('leaves a cached page at the moment a block’s window closes, with no write in between', async () => {
    const p = await page()
    const endsAt = new Date(Date.now() + 1500).toISOString()
    const brief = await create(p, button('brief', { visibility: { endsAt } }))
    const counts = t.ctx.metrics.pageCache
    assert.ok((await html(p)).includes(`id="slot-${brief.id}"`))
    const hits = counts.hits
    assert.ok((await html(p)).includes(`id="slot-${brief.id}"`))
    assert.equal(counts.hits, hits + 1, 'the second answer came from the cache')
    await sleep(Math.max(0, Date.parse(endsAt) - Date.now()) + 5)
    assert.ok(!(await html(p)).includes(`id="slot-${brief.id}"`))
  })

  it('enters the page at the moment a block’s window opens', async () => {
    const p = await page()
    const startsAt = new Date(Date.now() + 1500).toISOString()
    const soon = await create(p, button('soon', { visibility: { startsAt } }))
    assert.ok(!(await html(p)).includes(`id="slot-${soon.id}"`))
    assert.equal((await t.request('GET', `/-/go/${p.profile.id}/${soon.id}/0`, { headers: browser })).status, 404)
    await sleep(Math.max(0, Date.parse(startsAt) - Date.now()) + 5)
    assert.ok((await html(p)).includes(`id="slot-${soon.id}"`))
    assert.equal((await t.request('GET', `/-/go/${p.profile.id}/${soon.id}/0`, { headers: browser })).status, 302)
  })
})
