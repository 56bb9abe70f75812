import type { AppContext } from '../context.ts'
import { jobRunsRepository } from '../store/job-runs.ts'

export interface PeriodicJob {
  /** Short kebab-case name, in log lines. */
  name: string
  everyMs: number
  /** Delay of the first run after start (default: one period). */
  firstAfterMs?: number
  /** One run; a returned object with something to say is logged at info. */
  run: () => Promise<Record<string, unknown> | undefined>
}

/**
 * Whether this instance runs `name` for `period`: the first instance of the fleet to ask wins.
 * With Redis, a lease key that lives one period (SET NX PX); without, a row in the shared
 * database that only moves forward (job_runs), which also serves a fleet on PostgreSQL alone.
 */
async function claim(ctx: AppContext, name: string, period: number, everyMs: number): Promise<boolean> {
  if (ctx.redis) return (await ctx.redis.set(`slotline:job:${name}:${period}`, process.pid, 'PX', everyMs, 'NX')) === 'OK'
  return jobRunsRepository.claimPeriod(ctx.db, name, period)
}

/**
 * Runs a background job on a timer until the context closes, once per period in the whole
 * fleet: each instance ticks, and only the one that claims the period (see claim) runs it.
 * A failed run is logged at error with the job's name and retried at the next period: a job
 * nobody watches must never fail in silence (the idempotency purge once dropped its errors).
 */
export function schedulePeriodic(ctx: AppContext, job: PeriodicJob): { runNow: () => Promise<void> } {
  const runNow = async () => {
    try {
      if (!(await claim(ctx, job.name, Math.floor(Date.now() / job.everyMs), job.everyMs))) return
      const outcome = await job.run()
      if (outcome && Object.keys(outcome).length) ctx.log.info({ job: job.name, ...outcome }, `${job.name}: done`)
    } catch (err) {
      ctx.metrics.backgroundErrors.inc({ task: job.name })
      ctx.log.error({ err, job: job.name }, `${job.name}: failed; retrying in ${Math.round(job.everyMs / 60_000)} min`)
    }
  }
  ctx.jobs.set(job.name, runNow)
  const first = setTimeout(() => void runNow(), job.firstAfterMs ?? job.everyMs)
  const timer = setInterval(() => void runNow(), job.everyMs)
  first.unref()
  timer.unref()
  ctx.onClose(() => {
    clearTimeout(first)
    clearInterval(timer)
  })
  return { runNow }
}
