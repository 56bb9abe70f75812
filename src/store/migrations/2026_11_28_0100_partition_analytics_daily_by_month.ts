import { type Kysely, PostgresAdapter, sql } from 'kysely'

// Frozen in time: imports nothing from src/. On PostgreSQL the daily rollup tables
// become partitioned by month (RANGE on the `day` text, YYYY-MM-DD compares as a date), so
// retention drops a month's partition instead of deleting its rows one by one, and a query for
// one page reads only the months it asks for. Each table keeps its name, columns, keys, foreign
// keys and indexes; a DEFAULT partition takes any day no month partition covers yet. SQLite
// keeps its tables (retention deletes by range there).
const TABLES = ['analytics_daily', 'analytics_slot_daily', 'analytics_social_daily', 'analytics_breakdown_daily', 'analytics_account_breakdown_daily']

const monthAfter = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`
}

async function partition(db: Kysely<any>, table: string, thisMonth: string, lastMonth: string): Promise<void> {
  const constraints = await sql<{ name: string; def: string; type: string }>`
    SELECT conname AS name, pg_get_constraintdef(oid) AS def, contype AS type FROM pg_constraint
    WHERE conrelid = to_regclass(${table}) ORDER BY contype DESC`.execute(db)
  const owned = new Set(constraints.rows.map((c) => c.name))
  const indexes = await sql<{ name: string; def: string }>`
    SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ${table}`.execute(db)
  const first = await sql<{ month: string | null }>`SELECT min(substr(day, 1, 7)) AS month FROM ${sql.table(table)}`.execute(db)
  const old = `${table}_unpartitioned`
  await sql.raw(`ALTER TABLE ${table} RENAME TO ${old}`).execute(db)
  await sql.raw(`CREATE TABLE ${table} (LIKE ${old} INCLUDING DEFAULTS) PARTITION BY RANGE (day)`).execute(db)
  const oldest = first.rows[0]?.month
  let month = oldest && oldest < thisMonth ? oldest : thisMonth
  for (let i = 0; i < 60 && month <= lastMonth; i++, month = monthAfter(month)) {
    const name = `${table}_${month.replace('-', '_')}`
    await sql.raw(`CREATE TABLE ${name} PARTITION OF ${table} FOR VALUES FROM ('${month}-01') TO ('${monthAfter(month)}-01')`).execute(db)
  }
  await sql.raw(`CREATE TABLE ${table}_default PARTITION OF ${table} DEFAULT`).execute(db)
  await sql.raw(`INSERT INTO ${table} SELECT * FROM ${old}`).execute(db)
  await sql.raw(`DROP TABLE ${old}`).execute(db)
  // Primary key first (contype 'p' sorts after 'f' descending), then foreign keys, then indexes.
  for (const c of constraints.rows) await sql.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${c.name} ${c.def}`).execute(db)
  for (const i of indexes.rows) if (!owned.has(i.name)) await sql.raw(i.def).execute(db)
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
  const now = new Date()
  // This month and the next two; the service makes later ones as time goes (analytics-partitions.ts).
  const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1)).toISOString().slice(0, 7)
  const thisMonth = now.toISOString().slice(0, 7)
  for (const table of TABLES) await partition(db, table, thisMonth, ahead)
}

export async function down(): Promise<void> {
  // Partitioned tables answer every query the plain ones did; there is nothing to undo.
}
