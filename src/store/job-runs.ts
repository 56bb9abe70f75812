import type { Db } from './db.ts'

/**
 * Claims `period` of job `name` for the caller: true for exactly one caller per period across
 * every instance on this database (one atomic upsert that only moves the period forward).
 */
async function claimPeriod(db: Db, name: string, period: number, now = new Date()): Promise<boolean> {
  const res = await db
    .insertInto('job_runs')
    .values({ name, period, claimed_at: now.toISOString() })
    .onConflict((oc) => oc.column('name').doUpdateSet({ period, claimed_at: now.toISOString() }).where('job_runs.period', '<', period))
    .executeTakeFirst()
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0
}

export const jobRunsRepository = Object.freeze({ claimPeriod })
