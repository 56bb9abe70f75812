import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { localDay } from '../../src/analytics/local-day.ts'
import { resolveQuery } from '../../src/analytics/period.ts'
import { AppError } from '../../src/kernel/errors.ts'

// 2026-03-01 00:30 in Berlin (CET, UTC+1), still 28 February in UTC and New York.
const now = new Date('2026-02-28T23:30:00Z')

const fieldsOf = (fn: () => unknown): string[] => {
  try {
    fn()
  } catch (err) {
    assert.ok(err instanceof AppError)
    assert.equal(err.status, 422)
    return Object.keys(err.errors ?? {})
  }
  assert.fail('expected a 422')
}

describe('local days and analytics periods', () => {
  it('puts 23:30 UTC on the next day for a Europe/Berlin owner and the same day for UTC and New York', () => {
    assert.equal(localDay(now, 'Europe/Berlin'), '2026-03-01')
    assert.equal(localDay(now, 'UTC'), '2026-02-28')
    assert.equal(localDay(now, 'America/New_York'), '2026-02-28')
  })

  it('follows daylight saving time', () => {
    // Berlin is UTC+2 in summer: 22:30 UTC is already the next day.
    assert.equal(localDay(new Date('2026-07-14T22:30:00Z'), 'Europe/Berlin'), '2026-07-15')
    assert.equal(localDay(new Date('2026-01-14T22:30:00Z'), 'Europe/Berlin'), '2026-01-14')
  })

  it('falls back to UTC for an unknown time zone rather than losing the event', () => {
    assert.equal(localDay(now, 'Mars/Olympus_Mons'), '2026-02-28')
  })

  it("resolves every preset in the owner's time zone", () => {
    const q = (period: any) => {
      const r = resolveQuery({ period }, 'Europe/Berlin', now)
      return [r.from, r.to, r.days]
    }
    assert.deepEqual(q('today'), ['2026-03-01', '2026-03-01', 1])
    assert.deepEqual(q('yesterday'), ['2026-02-28', '2026-02-28', 1])
    assert.deepEqual(q('last7'), ['2026-02-23', '2026-03-01', 7])
    assert.deepEqual(q('last28'), ['2026-02-02', '2026-03-01', 28])
    assert.deepEqual(q('last90'), ['2025-12-02', '2026-03-01', 90])
    assert.deepEqual(q('thisMonth'), ['2026-03-01', '2026-03-01', 1])
    assert.deepEqual(q('lastMonth'), ['2026-02-01', '2026-02-28', 28])
    assert.deepEqual(q(undefined), ['2026-02-02', '2026-03-01', 28], 'last28 is the default')
    assert.equal(resolveQuery({ period: 'thisMonth' }, 'UTC', now).from, '2026-02-01')
  })

  it('takes the previous period of equal length just before, unless compare is false', () => {
    const r = resolveQuery({ dateFrom: '2026-02-10', dateTo: '2026-02-16' }, 'UTC', now)
    assert.deepEqual(r.previous, { from: '2026-02-03', to: '2026-02-09' })
    assert.equal(resolveQuery({ period: 'last7', compare: false }, 'UTC', now).previous, undefined)
  })

  it('completes a missing end with today and a missing start with the 28 days before the end', () => {
    assert.deepEqual(
      [resolveQuery({ dateFrom: '2026-02-20' }, 'UTC', now).from, resolveQuery({ dateFrom: '2026-02-20' }, 'UTC', now).to],
      ['2026-02-20', '2026-02-28'],
    )
    const r = resolveQuery({ dateTo: '2026-01-28' }, 'UTC', now)
    assert.deepEqual([r.from, r.to], ['2026-01-01', '2026-01-28'])
  })

  it('accepts 366 days and refuses 367 naming dateTo', () => {
    assert.equal(resolveQuery({ dateFrom: '2025-01-01', dateTo: '2026-01-01' }, 'UTC', now).days, 366)
    assert.deepEqual(
      fieldsOf(() => resolveQuery({ dateFrom: '2025-01-01', dateTo: '2026-01-02' }, 'UTC', now)),
      ['dateTo'],
    )
  })

  it('refuses a start after the end, a preset mixed with dates and an unknown include', () => {
    assert.deepEqual(
      fieldsOf(() => resolveQuery({ dateFrom: '2026-02-10', dateTo: '2026-02-09' }, 'UTC', now)),
      ['dateFrom'],
    )
    assert.deepEqual(
      fieldsOf(() => resolveQuery({ period: 'last7', dateFrom: '2026-02-10' }, 'UTC', now)),
      ['period'],
    )
    assert.deepEqual(
      fieldsOf(() => resolveQuery({ include: 'timeline,slots' }, 'UTC', now)),
      ['include'],
    )
    assert.equal(resolveQuery({ include: ' timeline ' }, 'UTC', now).timeline, true)
  })
})
