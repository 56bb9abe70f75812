import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { addDays } from '../../src/analytics/local-day.ts'
import { purgeExpiredAnalytics } from '../../src/analytics/analytics-purge.ts'
import { analyticsRepository } from '../../src/store/analytics.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

describe(`analytics retention (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('drops rollups older than 365 days and keeps the rest, month sketches included', async () => {
    const { user } = await makeAccount(t, { timezone: 'UTC' })
    const page = await makeProfile(t, user)
    const now = new Date('2026-11-22T12:00:00Z')
    const intake = t.ctx.intake
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000)
    for (const daysAgo of [500, 366, 365, 364, 10]) {
      intake.view({ profileId: page.id, ip: `10.0.0.${daysAgo % 250}`, userAgent: BROWSER, at: at(daysAgo) })
      intake.click({ profileId: page.id, ip: `10.0.0.${daysAgo % 250}`, userAgent: BROWSER, at: at(daysAgo), slotId: 4, socialIndex: 1 })
    }
    await intake.flush()

    const { before, removed } = await purgeExpiredAnalytics(t.ctx.db, now)
    assert.equal(before, '2025-11-22')
    const all = { from: '2000-01-01', to: '2100-01-01' }
    const days = await analyticsRepository.readDailyCounts(t.ctx.db, [page.id], all.from, all.to)
    assert.deepEqual(
      days.map((d) => d.day),
      ['2025-11-22', '2025-11-23', '2026-11-12'],
    )
    // Two days, each with a day row, a block row, a social row and four breakdown rows (source, country, device, browser:
    // one value each), and one month (2025-07) with two sketches (page and block) and four breakdown rows.
    assert.equal(removed, 2 * (3 + 4) + 2 + 4)
    assert.deepEqual(
      (await analyticsRepository.slotClickTotals(t.ctx.db, page.id, all)).map((r) => r.clicks),
      [3],
    )
    assert.deepEqual(
      (await analyticsRepository.socialClickTotals(t.ctx.db, page.id, all)).map((r) => r.clicks),
      [3],
    )
    const months = await analyticsRepository.readMonthlySketches(t.ctx.db, [page.id], ['2025-07', '2025-11', '2026-11'])
    assert.deepEqual(months.map((m) => m.period).sort(), ['2025-11', '2026-11'])
    assert.equal(addDays(before, 365), '2026-11-22')
  })
})
