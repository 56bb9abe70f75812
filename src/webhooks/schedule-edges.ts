import type { AppContext } from '../context.ts'
import { schedulePeriodic } from '../jobs/periodic-job.ts'
import { instantOf } from '../slots/shared/visibility.ts'
import { inTransaction } from '../store/db.ts'
import { jobRunsRepository } from '../store/job-runs.ts'
import { webhooksRepository } from '../store/webhooks.ts'
import { queueEvent } from './outbox.ts'

// block.schedule_started / block.schedule_ended: a block's window opens or closes by the clock,
// with no write to report it. A mark in the store says up to when edges were looked at; each
// pass reports the edges after the mark up to now and moves the mark in the same transaction,
// so every edge is reported once, by one instance, and none is lost to a restart.

const MARK = 'webhook-schedule-edges:mark'
const EVERY_MS = 30_000
/** After a long stop, edges older than this are not reported any more (stale news, and a flood). */
const CATCH_UP_MS = 24 * 3600_000
/** Wider than any time zone's offset from UTC: times without an offset are compared as written. */
const ZONE_MARGIN_MS = 15 * 3600_000
const EDGES = ['block.schedule_started', 'block.schedule_ended'] as const

const iso = (ms: number) => new Date(ms).toISOString()

/** Queues the edges between the mark and `now`; resolves with how many deliveries. */
export async function queueScheduleEdges(ctx: AppContext, now: number = Date.now()): Promise<number> {
  const last = await jobRunsRepository.markOf(ctx.db, MARK)
  // The first pass only sets the mark: what happened before the service watched is not news.
  if (last === undefined) {
    await jobRunsRepository.moveMark(ctx.db, MARK, undefined, now)
    return 0
  }
  if (now <= last) return 0
  const users = await webhooksRepository.listeningUsers(ctx.db, EDGES)
  const from = Math.max(last, now - CATCH_UP_MS)
  const queued = await inTransaction(ctx.db, async (trx) => {
    if (!(await jobRunsRepository.moveMark(trx, MARK, last, now))) return 0
    const slots = await webhooksRepository.scheduledSlots(trx, users, iso(from - ZONE_MARGIN_MS), iso(now + ZONE_MARGIN_MS))
    let count = 0
    for (const slot of slots) {
      for (const [type, text] of [
        ['block.schedule_started', slot.startsAt],
        ['block.schedule_ended', slot.endsAt],
      ] as const) {
        const at = text === null ? undefined : instantOf(text, slot.timezone)
        if (at === undefined || at <= from || at > now) continue
        const data = { profileId: slot.profileId, login: slot.login, slotId: slot.slotId, type: slot.type, at: iso(at) }
        count += await queueEvent(trx, { userId: slot.userId, profileId: slot.profileId, type, data })
      }
    }
    return count
  })
  if (queued) ctx.webhooks.nudge()
  return queued
}

export function scheduleScheduleEdges(ctx: AppContext): { runNow: () => Promise<void> } {
  return schedulePeriodic(ctx, {
    name: 'webhook-schedule-edges',
    everyMs: EVERY_MS,
    firstAfterMs: 1000,
    run: async () => {
      const queued = await queueScheduleEdges(ctx)
      return queued ? { queued } : undefined
    },
  })
}
