import type { AppContext } from '../context.ts'
import { schedulePeriodic } from '../jobs/periodic-job.ts'
import { limits } from '../kernel/limits.ts'
import type { Db } from '../store/db.ts'
import { analyticsRepository } from '../store/analytics.ts'
import { analyticsPartitions } from '../store/analytics-partitions.ts'
import { addDays } from './local-day.ts'

const DAY_MS = 86_400_000

/**
 * spec, Limits: analytics are kept 365 days. Days are stored in each owner's zone, up to a day
 * behind UTC, so the cut is one day further back than UTC alone would put it: nothing an owner
 * can still ask for is dropped.
 */
export async function purgeExpiredAnalytics(db: Db, now: Date = new Date()): Promise<{ before: string; removed: number }> {
  const before = addDays(now.toISOString().slice(0, 10), -limits.analyticsRetentionDays)
  // On PostgreSQL whole months go by dropping their partitions, the rest by range.
  const dropped = await analyticsPartitions.dropMonthsBefore(db, before)
  const today = now.toISOString().slice(0, 7)
  await analyticsPartitions.ensureMonths(db, today, addDays(`${today}-01`, 62).slice(0, 7))
  return { before, removed: dropped + (await analyticsRepository.purgeBefore(db, before)) }
}

/** Runs the purge once a day (first a minute after start) until the context closes. */
export function scheduleAnalyticsPurge(ctx: AppContext): void {
  schedulePeriodic(ctx, {
    name: 'analytics-purge',
    everyMs: DAY_MS,
    firstAfterMs: 60_000,
    run: async () => {
      const { before, removed } = await purgeExpiredAnalytics(ctx.db)
      return removed > 0 ? { before, removed } : undefined
    },
  })
}
