import { sql } from 'kysely'
import { type Db, isPostgres } from './db.ts'

/**
 * The monthly partitions of the daily rollup tables on PostgreSQL (the migration
 * 2026_11_28_0100 made them). Retention drops whole months; the month partitions ahead are made
 * before their days arrive. On SQLite both do nothing: retention deletes by range there.
 */
const PARTITIONED = ['analytics_daily', 'analytics_slot_daily', 'analytics_social_daily', 'analytics_breakdown_daily', 'analytics_account_breakdown_daily']

const monthAfter = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`
}

/** The month partitions of `table`, as `YYYY_MM` name suffixes, oldest first. */
async function monthsOf(db: Db, table: string): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = to_regclass(${table})`.execute(db)
  return rows.rows
    .map((r) => r.name.slice(table.length + 1))
    .filter((suffix) => /^\d{4}_\d{2}$/.test(suffix))
    .sort()
}

/**
 * Drops every month partition wholly before `day` (YYYY-MM-DD) and answers the rows they held;
 * the month `day` falls in is left for the range delete.
 */
async function dropMonthsBefore(db: Db, day: string): Promise<number> {
  if (!isPostgres(db)) return 0
  let dropped = 0
  for (const table of PARTITIONED) {
    for (const suffix of await monthsOf(db, table)) {
      if (`${monthAfter(suffix.replace('_', '-'))}-01` > day) continue
      const name = `${table}_${suffix}`
      const count = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(name)}`.execute(db)
      await sql`DROP TABLE ${sql.table(name)}`.execute(db)
      // The accounts' sums are not rows of their own (as in analyticsRepository.purgeBefore).
      if (table !== 'analytics_account_breakdown_daily') dropped += Number(count.rows[0]?.n ?? 0)
    }
  }
  return dropped
}

/**
 * Makes the month partitions from `from` (YYYY-MM) through `through` that are missing. Days of a
 * month without one went to the DEFAULT partition: they move into the new one in the same
 * transaction, so no row is ever outside a partition.
 */
async function ensureMonths(db: Db, from: string, through: string): Promise<string[]> {
  if (!isPostgres(db)) return []
  const made: string[] = []
  for (const table of PARTITIONED) {
    const have = new Set(await monthsOf(db, table))
    for (let month = from; month <= through; month = monthAfter(month)) {
      const suffix = month.replace('-', '_')
      if (have.has(suffix)) continue
      const name = `${table}_${suffix}`
      const [lo, hi] = [`${month}-01`, `${monthAfter(month)}-01`]
      await db.transaction().execute(async (trx) => {
        await sql.raw(`CREATE TABLE ${name} (LIKE ${table} INCLUDING DEFAULTS)`).execute(trx)
        await sql
          .raw(`WITH moved AS (DELETE FROM ${table}_default WHERE day >= '${lo}' AND day < '${hi}' RETURNING *) INSERT INTO ${name} SELECT * FROM moved`)
          .execute(trx)
        await sql.raw(`ALTER TABLE ${table} ATTACH PARTITION ${name} FOR VALUES FROM ('${lo}') TO ('${hi}')`).execute(trx)
      })
      made.push(name)
    }
  }
  return made
}

export const analyticsPartitions = Object.freeze({ dropMonthsBefore, ensureMonths })
