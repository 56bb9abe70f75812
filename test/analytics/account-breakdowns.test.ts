import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import { deleteProfile } from '../../src/core/profile-deletion.ts'
import { addDays, localDay } from '../../src/analytics/local-day.ts'
import { purgeExpiredAnalytics } from '../../src/analytics/analytics-purge.ts'
import { seedHistory } from '../../src/analytics/seed.ts'
import { analyticsRepository, type BreakdownTotal } from '../../src/store/analytics.ts'
import { up as backfill } from '../../src/store/migrations/2026_11_27_0210_create_analytics_account_breakdowns.ts'
import type { User } from '../../src/store/users.ts'
import { makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

// issue 32: an account's breakdown counters are kept beside its pages' ones, so account
// analytics reads a dozen month rows instead of summing every page's. They must always equal
// the sum over the account's pages, whichever way the pages' rows were written or removed.

const sorted = (rows: BreakdownTotal[]) => [...rows].sort((a, b) => `${a.dimension} ${a.value}`.localeCompare(`${b.dimension} ${b.value}`))

describe(`an account's breakdown counters are the sum of its pages' (${STORE})`, () => {
  let t: TestApp
  let owner: User
  let userId: number
  let ids: number[]
  let today: string
  const months = () => [...new Set(Array.from({ length: 60 }, (_, i) => addDays(today, -i).slice(0, 7)))]
  // Whole months and a range of days, as a period query reads them.
  const days = () => [{ from: addDays(today, -59), to: today }]

  const expectSums = async (pages: number[]) => {
    for (const [m, d] of [
      [months(), []],
      [[], days()],
    ] as const) {
      const pagesSum = await analyticsRepository.breakdownTotals(t.ctx.db, pages, [...m], [...d])
      const account = await analyticsRepository.accountBreakdownTotals(t.ctx.db, userId, [...m], [...d])
      assert.deepEqual(sorted(account), sorted(pagesSum))
    }
  }

  before(async () => {
    t = await startApp()
    const user = await makeUser(t)
    owner = user
    userId = user.id
    today = localDay(new Date(), user.timezone)
    const pages = [await makeProfile(t, user), await makeProfile(t, user), await makeProfile(t, user)]
    ids = pages.map((p) => p.id)
    for (const [i, page] of pages.entries()) {
      await seedHistory(t.ctx.db, page, { days: 40 + i * 5, events: 600, clicks: 100, timezone: user.timezone, sources: 15, countries: 8 })
    }
    // Another account's pages never count towards this one.
    const other = await makeUser(t)
    await seedHistory(t.ctx.db, await makeProfile(t, other), { days: 20, events: 300, clicks: 50, timezone: other.timezone, sources: 5, countries: 3 })
  })
  after(() => t?.close())

  it('sums every page of the account after the seed command replaced their histories', async () => {
    const account = await analyticsRepository.accountBreakdownTotals(t.ctx.db, userId, months(), [])
    assert.ok(account.length > 20)
    await expectSums(ids)
  })

  it('takes a deleted page out of its account, dropping values only it had', async () => {
    const deleted = (await t.ctx.db.selectFrom('profiles').selectAll().where('id', '=', ids[1]!).executeTakeFirstOrThrow()).login
    await deleteProfile(t.ctx, ownerPrincipal(owner), ids[1]!, { confirmLogin: deleted })
    ids = [ids[0]!, ids[2]!]
    await expectSums(ids)
    const zero = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM analytics_account_breakdown_daily WHERE views = 0 AND clicks = 0`.execute(t.ctx.db)
    assert.equal(Number(zero.rows[0]!.n), 0)
  })

  it('fills the counters from the pages already stored when the migration runs', async () => {
    await sql`DELETE FROM analytics_account_breakdown_daily`.execute(t.ctx.db)
    await sql`DELETE FROM analytics_account_breakdown_monthly`.execute(t.ctx.db)
    await backfill(t.ctx.db)
    await expectSums(ids)
  })

  it('drops the account counters the retention purge drops for its pages', async () => {
    // As of 330 days from now, retention keeps only the last 34 days of the seeded ones.
    const later = new Date(Date.now() + 330 * 86_400_000)
    await purgeExpiredAnalytics(t.ctx.db, later)
    await expectSums(ids)
  })
})
