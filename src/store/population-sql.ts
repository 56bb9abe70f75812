import { sql } from 'kysely'
import { type Db, isPostgres } from './db.ts'
import type { PopulationPlan } from './population-load.ts'

// SQL fragments the population loaders share; each works on both engines.

/** `WITH RECURSIVE` works on both engines; PostgreSQL's generate_series is faster there. */
export const series = (db: Db, name: string, n: number) =>
  isPostgres(db)
    ? sql.raw(`${name} AS (SELECT g FROM generate_series(1, ${n}) AS s(g))`)
    : sql.raw(`${name}(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM ${name} WHERE g < ${n})`)

/** A 31-bit mix of an integer expression (two rounds of MINSTD): no overflow on 64-bit integers. */
export const mix = (e: string) => `(((((${e}) % 2147483647) * 48271) % 2147483647) * 48271 % 2147483647)`

/** `CASE` picking the sketch bucket for a number of unique visitors. */
export const bucketOf = (plan: PopulationPlan, uniques: string) =>
  `CASE ${plan.buckets
    .map((b, i) => [b, i] as const)
    .slice(1)
    .reverse()
    .map(([b, i]) => `WHEN ${uniques} >= ${b.from} THEN ${i}`)
    .join(' ')} ELSE 0 END`

/** A work table: unlogged on PostgreSQL, as it is dropped before the load ends and never needs recovery. */
export const workTable = (db: Db, name: string) => `CREATE ${isPostgres(db) ? 'UNLOGGED ' : ''}TABLE ${name}`

/**
 * Runs `load` with the foreign keys and secondary indexes of `tables` dropped on PostgreSQL,
 * then puts them back, whatever happened: a foreign key checked once over the whole table is a
 * single join, where checking it row by row probes the parent's key for every inserted row,
 * and an index built from sorted rows beats one grown row by row.
 */
export async function withoutChecks<T>(db: Db, tables: string[], load: () => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return load()
  const list = sql.join(tables.map((t) => sql`to_regclass(${t})`))
  const keys = await sql<{ table: string; name: string; def: string }>`
    SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE contype = 'f' AND conrelid IN (${list})`.execute(db)
  const indexes = await sql<{ name: string; def: string }>`
    SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
    WHERE i.schemaname = current_schema() AND i.tablename IN (${sql.join(tables)})
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`.execute(db)
  for (const k of keys.rows) await sql.raw(`ALTER TABLE ${k.table} DROP CONSTRAINT ${k.name}`).execute(db)
  for (const i of indexes.rows) await sql.raw(`DROP INDEX ${i.name}`).execute(db)
  try {
    return await load()
  } finally {
    // A partitioned table lists its index as ON ONLY; made plainly it covers every partition again.
    // Two builds at a time, one a core; the keys one by one, as two may lock the same parent.
    for (let n = 0; n < indexes.rows.length; n += 2) {
      await sideBySide(
        db,
        indexes.rows.slice(n, n + 2).map((i) => (conn) => sql.raw(i.def.replace(' ON ONLY ', ' ON ')).execute(conn)),
      )
    }
    for (const k of keys.rows) await sql.raw(`ALTER TABLE ${k.table} ADD CONSTRAINT ${k.name} ${k.def}`).execute(db)
  }
}

/**
 * Runs `work` on PostgreSQL in a transaction of its own whose sorts, hashes and index builds
 * may take far more memory than a request's (PostgreSQL's defaults spill a grouping of tens of
 * millions of rows to disk); as is on SQLite.
 */
export async function roomy<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return work(db)
  return db.transaction().execute(async (trx) => {
    await sql.raw(`SET LOCAL work_mem = '${BULK_MEMORY}'`).execute(trx)
    await sql.raw(`SET LOCAL maintenance_work_mem = '${BULK_MEMORY}'`).execute(trx)
    return work(trx)
  })
}
const BULK_MEMORY = '512MB'

/**
 * Runs independent steps side by side on PostgreSQL, each in a roomy transaction on a
 * connection of its own (one statement uses one core), and one after the other on SQLite,
 * which has one writer.
 */
export async function sideBySide(db: Db, steps: Array<(db: Db) => Promise<unknown>>): Promise<void> {
  if (isPostgres(db)) await Promise.all(steps.map((step) => roomy(db, step)))
  else for (const step of steps) await step(db)
}
