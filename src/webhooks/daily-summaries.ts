import { addDays, localDay } from '../analytics/local-day.ts'
import { resolveQuery } from '../analytics/period.ts'
import { pageReport } from '../analytics/report.ts'
import type { AppContext } from '../context.ts'
import { schedulePeriodic } from '../jobs/periodic-job.ts'
import { inTransaction } from '../store/db.ts'
import { jobRunsRepository } from '../store/job-runs.ts'
import { profilesRepository } from '../store/profiles.ts'
import { usersRepository } from '../store/users.ts'
import { webhooksRepository } from '../store/webhooks.ts'
import type { WebhookEventData } from './event-types.ts'
import { queueEvent } from './outbox.ts'

// analytics.daily: once a day has closed in the owner's time zone, each page's figures for it.
// A mark per account (the last day reported, as YYYYMMDD) moves in the transaction that queues
// the day's events, so a day is reported once, by one instance, across restarts.

/** Often enough that a day closing at a quarter past (some zones) is reported within minutes. */
const EVERY_MS = 15 * 60_000
/** Days reported at most after a stop, the oldest first. */
const CATCH_UP_DAYS = 7

const markName = (userId: number) => `webhook-analytics-daily:${userId}`
const dayNumber = (day: string) => Number(day.replaceAll('-', ''))
const dayOf = (n: number) => `${String(n).slice(0, 4)}-${String(n).slice(4, 6)}-${String(n).slice(6, 8)}`

/** Queues the closed days not reported yet, for every account that listens; resolves with how many deliveries. */
export async function queueDailySummaries(ctx: AppContext, now: Date = new Date()): Promise<number> {
  let queued = 0
  for (const userId of await webhooksRepository.listeningUsers(ctx.db, ['analytics.daily'])) queued += await queueAccountDays(ctx, userId, now)
  if (queued) ctx.webhooks.nudge()
  return queued
}

async function queueAccountDays(ctx: AppContext, userId: number, now: Date): Promise<number> {
  const user = await usersRepository.findById(ctx.db, userId)
  if (!user) return 0
  const yesterday = addDays(localDay(now, user.timezone), -1)
  const last = await jobRunsRepository.markOf(ctx.db, markName(userId))
  if (last !== undefined && last >= dayNumber(yesterday)) return 0
  // The first report is of the last closed day; after a stop, of the days missed (a week at most).
  let day = last === undefined ? yesterday : addDays(dayOf(last), 1)
  if (day < addDays(yesterday, -(CATCH_UP_DAYS - 1))) day = addDays(yesterday, -(CATCH_UP_DAYS - 1))
  const events: Array<WebhookEventData<'analytics.daily'>> = []
  const profiles = await profilesRepository.listByUser(ctx.db, userId)
  for (; day <= yesterday; day = addDays(day, 1)) {
    for (const profile of profiles) events.push(await summaryOf(ctx, profile, day, user.timezone, now))
  }
  return inTransaction(ctx.db, async (trx) => {
    if (!(await jobRunsRepository.moveMark(trx, markName(userId), last, dayNumber(yesterday)))) return 0
    let count = 0
    for (const data of events) count += await queueEvent(trx, { userId, profileId: data.profileId, type: 'analytics.daily', data })
    return count
  })
}

async function summaryOf(
  ctx: AppContext,
  profile: Awaited<ReturnType<typeof profilesRepository.listByUser>>[number],
  day: string,
  timezone: string,
  now: Date,
): Promise<WebhookEventData<'analytics.daily'>> {
  const report = await pageReport(ctx.db, profile, resolveQuery({ dateFrom: day, dateTo: day }, timezone, now))
  return {
    profileId: profile.id,
    login: profile.login,
    date: day,
    timezone,
    views: report.totals.views,
    uniqueVisitors: report.totals.uniqueVisitors,
    clicks: report.totals.clicks,
    blocks: report.blocks.map((b) => ({ slotId: b.slotId, type: b.type, title: b.title, clicks: b.clicks })),
    topSources: report.sources.map((s) => ({ source: s.source, views: s.views })),
  }
}

export function scheduleDailySummaries(ctx: AppContext): { runNow: () => Promise<void> } {
  return schedulePeriodic(ctx, {
    name: 'webhook-analytics-daily',
    everyMs: EVERY_MS,
    firstAfterMs: 60_000,
    run: async () => {
      const queued = await queueDailySummaries(ctx)
      return queued ? { queued } : undefined
    },
  })
}
