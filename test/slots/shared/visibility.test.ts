import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { instantOf, isShownAt, mergeVisibility, nextChangeAfter, type SlotVisibility } from '../../../src/slots/shared/visibility.ts'

const at = (iso: string) => Date.parse(iso)
const window = (startsAt: string | null, endsAt: string | null, hidden = false): SlotVisibility => ({ hidden, startsAt, endsAt })

describe('instantOf', () => {
  it('reads a time with an offset as that instant, whatever the owner’s zone', () => {
    assert.equal(instantOf('2026-12-01T09:00:00+01:00', 'America/New_York'), at('2026-12-01T08:00:00Z'))
    assert.equal(instantOf('2026-12-01T09:00Z', 'Asia/Tokyo'), at('2026-12-01T09:00:00Z'))
    assert.equal(instantOf('2026-12-01T09:00:00.250-05:30', 'UTC'), at('2026-12-01T14:30:00.250Z'))
  })

  it('reads a time without an offset in the owner’s zone (Tokyo, New York, Kolkata, UTC)', () => {
    assert.equal(instantOf('2026-12-01T09:00', 'Asia/Tokyo'), at('2026-12-01T00:00:00Z'))
    assert.equal(instantOf('2026-12-01T09:00', 'America/New_York'), at('2026-12-01T14:00:00Z'))
    assert.equal(instantOf('2026-07-01T09:00', 'America/New_York'), at('2026-07-01T13:00:00Z'))
    assert.equal(instantOf('2026-12-01T09:00', 'Asia/Kolkata'), at('2026-12-01T03:30:00Z'))
    assert.equal(instantOf('2026-12-01T09:00:30', 'UTC'), at('2026-12-01T09:00:30Z'))
  })

  it('reads a wall time that a spring-forward change skips with the offset before the jump (Berlin 02:30 → 03:30 CEST)', () => {
    // 2026-03-29: Berlin goes from 02:00 CET straight to 03:00 CEST (01:00Z).
    assert.equal(instantOf('2026-03-29T02:30', 'Europe/Berlin'), at('2026-03-29T01:30:00Z'))
    assert.equal(instantOf('2026-03-29T01:59', 'Europe/Berlin'), at('2026-03-29T00:59:00Z'))
    assert.equal(instantOf('2026-03-29T03:00', 'Europe/Berlin'), at('2026-03-29T01:00:00Z'))
  })

  it('reads a wall time that a fall-back change repeats as its first occurrence (Berlin 02:30 CEST, New York 01:30 EDT)', () => {
    assert.equal(instantOf('2026-10-25T02:30', 'Europe/Berlin'), at('2026-10-25T00:30:00Z'))
    assert.equal(instantOf('2026-10-25T03:30', 'Europe/Berlin'), at('2026-10-25T02:30:00Z'))
    assert.equal(instantOf('2026-11-01T01:30', 'America/New_York'), at('2026-11-01T05:30:00Z'))
  })

  it('refuses dates and times that are not in the calendar or the clock', () => {
    for (const bad of ['2026-02-30T09:00', '2026-13-01T09:00', '2026-12-01T24:00', '2026-12-01T09:60', '2026-12-01', '2026-12-01T09:00+25:00', 'tomorrow']) {
      assert.equal(instantOf(bad, 'UTC'), undefined, bad)
    }
  })
})

describe('isShownAt and nextChangeAfter', () => {
  it('shows a block with no schedule always, and a hidden one never, with nothing ahead', () => {
    assert.equal(isShownAt(window(null, null), 'UTC', 0), true)
    assert.equal(isShownAt(window(null, null, true), 'UTC', 0), false)
    assert.equal(isShownAt(window('2020-01-01T00:00Z', null, true), 'UTC', at('2026-01-01T00:00Z')), false)
    assert.equal(nextChangeAfter(window(null, null), 'UTC', 0), undefined)
    assert.equal(nextChangeAfter(window('2030-01-01T00:00Z', null, true), 'UTC', 0), undefined)
  })

  it('shows from startsAt (inclusive) to endsAt (exclusive), and names the next boundary', () => {
    const v = window('2026-12-01T09:00', '2026-12-24T18:00')
    const zone = 'Europe/Paris'
    const start = at('2026-12-01T08:00:00Z')
    const end = at('2026-12-24T17:00:00Z')
    assert.equal(isShownAt(v, zone, start - 1), false)
    assert.equal(nextChangeAfter(v, zone, start - 1), start)
    assert.equal(isShownAt(v, zone, start), true)
    assert.equal(nextChangeAfter(v, zone, start), end)
    assert.equal(isShownAt(v, zone, end - 1), true)
    assert.equal(isShownAt(v, zone, end), false)
    assert.equal(nextChangeAfter(v, zone, end), undefined)
  })

  it('moves the same wall-clock window with the owner’s zone', () => {
    const v = window('2026-12-01T09:00', null)
    const now = at('2026-12-01T05:00:00Z')
    assert.equal(isShownAt(v, 'Asia/Tokyo', now), true)
    assert.equal(isShownAt(v, 'UTC', now), false)
    assert.equal(isShownAt(v, 'America/Los_Angeles', now), false)
    assert.equal(nextChangeAfter(v, 'America/Los_Angeles', now), at('2026-12-01T17:00:00Z'))
  })

  it('ends a window across a daylight-saving change at the right instant (New York, spring forward)', () => {
    // 2026-03-08: New York goes from 02:00 EST to 03:00 EDT. A window of 01:00–04:00 local is two hours long.
    const v = window('2026-03-08T01:00', '2026-03-08T04:00')
    const zone = 'America/New_York'
    assert.equal(nextChangeAfter(v, zone, at('2026-03-08T05:00:00Z')), at('2026-03-08T06:00:00Z'))
    assert.equal(nextChangeAfter(v, zone, at('2026-03-08T06:00:00Z')), at('2026-03-08T08:00:00Z'))
    assert.equal(isShownAt(v, zone, at('2026-03-08T07:59:59Z')), true)
    assert.equal(isShownAt(v, zone, at('2026-03-08T08:00:00Z')), false)
  })
})

describe('mergeVisibility', () => {
  const visible = window(null, null)

  it('keeps what a patch leaves out and clears a bound sent as null', () => {
    const r = mergeVisibility(window('2026-12-01T09:00', '2026-12-02T09:00'), { endsAt: null }, 'UTC', 'visibility')
    assert.deepEqual(r, { ok: true, value: window('2026-12-01T09:00', null) })
    assert.deepEqual(mergeVisibility(visible, { hidden: true }, 'UTC', 'visibility'), { ok: true, value: window(null, null, true) })
  })

  it('refuses endsAt at or before startsAt, naming endsAt under the prefix, compared as instants', () => {
    const r = mergeVisibility(visible, { startsAt: '2026-12-01T09:00', endsAt: '2026-12-01T09:00' }, 'UTC', 'slots.2.visibility')
    assert.equal(r.ok, false)
    assert.deepEqual(Object.keys((r as { errors: object }).errors), ['slots.2.visibility.endsAt'])
    // 09:00 in Tokyo is 00:00Z, so an end at 01:00Z is after it although its digits are smaller.
    assert.equal(mergeVisibility(visible, { startsAt: '2026-12-01T09:00', endsAt: '2026-12-01T01:00Z' }, 'Asia/Tokyo', 'visibility').ok, true)
    assert.equal(mergeVisibility(visible, { startsAt: '2026-12-01T09:00', endsAt: '2026-12-01T01:00Z' }, 'UTC', 'visibility').ok, false)
  })

  it('names every unreadable time at once', () => {
    const r = mergeVisibility(visible, { startsAt: '2026-02-30T09:00', endsAt: '2026-12-01T25:00' }, 'UTC', 'visibility')
    assert.deepEqual(Object.keys((r as { errors: object }).errors).sort(), ['visibility.endsAt', 'visibility.startsAt'])
  })
})
