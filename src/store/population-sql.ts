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
    for (const i of indexes.rows) await sql.raw(i.def.replace(' ON ONLY ', ' ON ')).execute(db)
    for (const k of keys.rows) await sql.raw(`ALTER TABLE ${k.table} ADD CONSTRAINT ${k.name} ${k.def}`).execute(db)
  }
}
