import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { purgeExpiredAnalytics } from '../../src/analytics/analytics-purge.ts'
import { analyticsRepository } from '../../src/store/analytics.ts'
import { analyticsPartitions } from '../../src/store/analytics-partitions.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

describe(`analytics partitions (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  const exists = async (table: string) => (await sql<{ r: string | null }>`SELECT to_regclass(${table})::text AS r`.execute(t.ctx.db)).rows[0]?.r !== null
  const rows = async (table: string) => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(t.ctx.db)).rows[0]?.n)

  it('keeps old days in month partitions that retention drops whole, and keeps what is younger', {
    skip: STORE !== 'postgres' && 'PostgreSQL partitions only',
  }, async () => {
    const kind = await sql<{ k: string }>`SELECT relkind AS k FROM pg_class WHERE oid = to_regclass('analytics_daily')`.execute(t.ctx.db)
    assert.equal(kind.rows[0]?.k, 'p', 'analytics_daily is partitioned')

    const { user } = await makeAccount(t, { timezone: 'UTC' })
    const page = await makeProfile(t, user)
    const intake = t.ctx.intake
    for (const at of ['2025-01-15T12:00:00Z', '2025-02-03T12:00:00Z', '2026-11-20T12:00:00Z']) {
      intake.view({ profileId: page.id, ip: '10.0.0.1', userAgent: BROWSER, at: new Date(at) })
      intake.click({ profileId: page.id, ip: '10.0.0.1', userAgent: BROWSER, at: new Date(at), slotId: 4, socialIndex: 1 })
    }
    await intake.flush()
    // Months with no partition yet went to DEFAULT; making the partition moves them in.
    assert.equal(await rows('analytics_daily_default'), 2)
    const made = await analyticsPartitions.ensureMonths(t.ctx.db, '2025-01', '2025-02')
    assert.ok(made.includes('analytics_daily_2025_01') && made.includes('analytics_slot_daily_2025_02'), made.join())
    assert.equal(await rows('analytics_daily_default'), 0)
    assert.equal(await rows('analytics_daily_2025_01'), 1)
    assert.equal(await rows('analytics_daily_2025_02'), 1)

    const { before, removed } = await purgeExpiredAnalytics(t.ctx.db, new Date('2026-11-22T12:00:00Z'))
    assert.equal(before, '2025-11-22')
    for (const table of [
      'analytics_daily',
      'analytics_slot_daily',
      'analytics_social_daily',
      'analytics_breakdown_daily',
      'analytics_account_breakdown_daily',
    ]) {
      assert.equal(await exists(`${table}_2025_01`), false, `${table}_2025_01 dropped`)
      assert.equal(await exists(`${table}_2025_02`), false, `${table}_2025_02 dropped`)
    }
    assert.ok(removed >= 2 * (1 + 1 + 1 + 4), String(removed))
    const days = await analyticsRepository.readDailyCounts(t.ctx.db, [page.id], '2000-01-01', '2100-01-01')
    assert.deepEqual(
      days.map((d) => [d.day, d.views]),
      [['2026-11-20', 1]],
    )
    // The month ahead exists before its days arrive.
    assert.equal(await exists('analytics_daily_2026_12'), true)
  })

  it('does nothing on SQLite, where retention deletes by range', { skip: STORE !== 'sqlite' && 'SQLite only' }, async () => {
    assert.equal(await analyticsPartitions.dropMonthsBefore(t.ctx.db, '2025-11-22'), 0)
    assert.deepEqual(await analyticsPartitions.ensureMonths(t.ctx.db, '2025-01', '2025-02'), [])
  })
})
