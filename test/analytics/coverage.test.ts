import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { coverage, within } from '../../src/analytics/coverage.ts'

describe('sketch coverage of a period', () => {
  const today = '2026-11-22'
  const kept = '2025-11-23'

  it('uses whole months inside the period and days for the partial ones at its ends', () => {
    assert.deepEqual(coverage({ from: '2026-03-15', to: '2026-06-10' }, today, kept), {
      months: ['2026-04', '2026-05'],
      days: [
        { from: '2026-03-15', to: '2026-03-31' },
        { from: '2026-06-01', to: '2026-06-10' },
      ],
    })
  })

  it("uses the current month's sketch when the period runs to today, since no later day has data", () => {
    assert.deepEqual(coverage({ from: '2026-10-01', to: today }, today, kept).months, ['2026-10', '2026-11'])
    assert.deepEqual(coverage({ from: '2026-10-01', to: '2026-11-21' }, today, kept), {
      months: ['2026-10'],
      days: [{ from: '2026-11-01', to: '2026-11-21' }],
    })
  })

  it('reads days for a month whose early days may already be purged', () => {
    const c = coverage({ from: '2025-11-01', to: '2026-01-31' }, today, kept)
    assert.deepEqual(c.months, ['2025-12', '2026-01'])
    assert.deepEqual(c.days, [{ from: '2025-11-01', to: '2025-11-30' }])
  })

  it('joins touching day ranges and can be asked for days only', () => {
    assert.deepEqual(coverage({ from: '2026-02-10', to: '2026-03-05' }, today, kept).days, [{ from: '2026-02-10', to: '2026-03-05' }])
    assert.deepEqual(coverage({ from: '2026-01-01', to: '2026-03-31' }, today, kept, false), {
      months: [],
      days: [{ from: '2026-01-01', to: '2026-03-31' }],
    })
  })

  it('cuts a coverage down to one monthly timeline bucket', () => {
    const c = coverage({ from: '2026-03-15', to: '2026-06-10' }, today, kept)
    assert.deepEqual(within(c, { from: '2026-04-01', to: '2026-04-30' }), { months: ['2026-04'], days: [] })
    assert.deepEqual(within(c, { from: '2026-03-15', to: '2026-03-31' }), { months: [], days: [{ from: '2026-03-15', to: '2026-03-31' }] })
  })
})
