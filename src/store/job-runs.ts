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

/** Where `name`'s mark stands (a number that only moves forward), or undefined before its first move. */
async function markOf(db: Db, name: string): Promise<number | undefined> {
  const row = await db.selectFrom('job_runs').select('period').where('name', '=', name).executeTakeFirst()
  // PostgreSQL hands a bigint back as a string.
  return row && Number(row.period)
}

/**
 * Moves `name`'s mark from `from` (undefined: none yet) to `to`, only if it still stands at
 * `from`: of callers that read the same mark, exactly one moves it. In a transaction, what the
 * caller writes beside the move is kept if and only if the move is.
 */
async function moveMark(db: Db, name: string, from: number | undefined, to: number, now = new Date()): Promise<boolean> {
  if (from === undefined) {
    const res = await db
      .insertInto('job_runs')
      .values({ name, period: to, claimed_at: now.toISOString() })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst()
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0
  }
  const res = await db
    .updateTable('job_runs')
    .set({ period: to, claimed_at: now.toISOString() })
    .where('name', '=', name)
    .where('period', '=', from)
    .executeTakeFirst()
  return Number(res.numUpdatedRows) > 0
}

export const jobRunsRepository = Object.freeze({ claimPeriod, markOf, moveMark })
