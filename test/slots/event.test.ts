import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { slotService } from '../../src/slots/slot-service.ts'
import event from '../../src/slots/event.ts'
import type { EventView } from '../../src/kernel/slot-records.ts'
import { eventsRepository } from '../../src/store/events.ts'
import { makeUser, STORE } from '../helpers/app.ts'
import { assertInvalidRefused, assertValidAccepted, renderContext, useSlotApi } from '../helpers/slots.ts'

const validEvent = fc.record({ eventId: fc.integer({ min: 1, max: 2 ** 31 - 1 }) })
const r = renderContext
const concert: Omit<EventView, 'id'> = {
  title: 'Live at the <Lux>',
  description: 'Doors at 19:00.',
  startsAt: '2026-03-14T19:30:00.000Z',
  endsAt: null,
  timezone: 'Europe/Lisbon',
  location: 'Lux Frágil, Lisbon',
  link: 'https://tickets.example.com/lux',
}

describe(`event slots (${STORE})`, () => {
  const api = useSlotApi('event')

  it('is described as read-only', () => {
    assert.equal(event.writable, false)
  })

  it('cannot be created: 422 on POST …/slots, 409 read_only in a batch', async () => {
    const one = await api.t.request('POST', api.base, { token: api.token, body: { type: 'event', data: { eventId: 1 } } })
    assert.equal(one.status, 422)
    assert.ok('type' in one.body.errors)
    const many = await api.t.request('POST', `${api.base}/batch`, { token: api.token, body: { slots: [{ type: 'event', data: { eventId: 1 } }] } })
    assert.equal(many.status, 409)
    assert.equal(many.body.code, 'read_only')
  })

  it('reads back with its eventId, and refuses PATCH with 409 read_only', async () => {
    const e = await eventsRepository.insert(api.t.ctx.db, { userId: api.user.id, ...concert })
    const [slot] = await slotService.appendManaged(api.t.ctx.db, api.profile, [{ type: 'event', data: { eventId: e.id } }])
    const read = await api.t.request('GET', `${api.base}/${slot.id}`, { token: api.token })
    assert.equal(read.status, 200)
    assert.deepEqual([read.body.data.supported, read.body.data.data], [true, { eventId: e.id }])
    const patch = await api.t.request('PATCH', `${api.base}/${slot.id}`, { token: api.token, body: { data: { eventId: 2 } } })
    assert.equal(patch.status, 409)
    assert.equal(patch.body.code, 'read_only')
  })

  it("renders from its record: title, time in the event's zone, place and a tickets link through the click redirect", async () => {
    const e = await eventsRepository.insert(api.t.ctx.db, { userId: api.user.id, ...concert })
    const [slot] = await slotService.appendManaged(api.t.ctx.db, api.profile, [{ type: 'event', data: { eventId: e.id } }])
    const record = (await slotService.records(api.t.ctx.db, api.user.id, [slot])).get(slot.id)
    const html = event.html({ id: slot.id, type: 'event', data: { eventId: e.id }, computed: {} }, r(record)).html
    assert.match(html, /<h2>Live at the &lt;Lux&gt;<\/h2>/)
    assert.match(html, /<time datetime="2026-03-14T19:30:00.000Z">Sat, 14 Mar 2026, 19:30\sWET<\/time>/)
    assert.match(html, new RegExp(`<a class="slot-event-link" href="/go/${slot.id}/0" data-slot-id="${slot.id}"`))
    assert.deepEqual(event.links!({ eventId: e.id }, {}, record), ['https://tickets.example.com/lux'])
    // The title's <Lux> is the organiser's text: escaped in markdown, so no reader takes it for a tag.
    assert.match(
      event.markdown({ id: slot.id, type: 'event', data: { eventId: e.id }, computed: {} }, record),
      /^\*\*Live at the \\<Lux>\*\*\nWhen: Sat, 14 Mar 2026, 19:30 WET/,
    )
  })

  it("never shows another user's event, saying the event is unavailable instead", async () => {
    const theirs = await eventsRepository.insert(api.t.ctx.db, { userId: (await makeUser(api.t)).id, ...concert })
    const [slot] = await slotService.appendManaged(api.t.ctx.db, api.profile, [{ type: 'event', data: { eventId: theirs.id } }])
    const records = await slotService.records(api.t.ctx.db, api.user.id, [slot])
    assert.equal(records.has(slot.id), false)
    assert.match(event.html({ id: slot.id, type: 'event', data: { eventId: theirs.id }, computed: {} }, r()).html, /no longer available/)
    assert.deepEqual(event.links!({ eventId: theirs.id }, {}, undefined), [])
  })

  it('accepts generated valid data as written (property)', () => {
    assertValidAccepted('event', validEvent, (d) => ({ ...d }))
  })

  it('refuses generated invalid data naming every offending key (property)', () => {
    assertInvalidRefused('event', validEvent)
  })
})
