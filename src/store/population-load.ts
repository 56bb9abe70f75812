import { sql } from 'kysely'
import { type Db, isPostgres } from './db.ts'
import { analyticsPartitions } from './analytics-partitions.ts'
import { fillAnalytics, POPULATION_ROLLUPS } from './population-rollups.ts'
import { mix, series, sideBySide, withoutChecks, workTable } from './population-sql.ts'

/**
 * Bulk loading of a generated population (core/population-generator.ts decides what it is).
 * Every table is filled by one INSERT … SELECT over a series the database makes itself, so no
 * row crosses the wire: on PostgreSQL that beat COPY from the client (each row is built and
 * parsed once, on the server), and on SQLite each statement is one transaction. Work tables
 * are ordinary `population_*` tables, not temporary ones, so every statement may use any
 * connection of the pool; they are dropped at the end.
 */

export interface SlotTemplate {
  type: string
  /** The stored data, with `"eventId":0` / `"formId":0` where the owner's own record goes. */
  data: string
  /** The owner's record the data points at (its id is `0` in `data`), if any. */
  record?: 'eventId' | 'formId'
}

export interface SketchBucket {
  /** Unique visitors from which this sketch stands for a day or a month (`below` the next). */
  from: number
  sketch: Buffer
  uniques: number
}

export interface PopulationPlan {
  /** A tag in every generated e-mail and login, so runs never collide. */
  run: string
  pages: number
  accounts: number
  passwordHash: string
  createdAt: string
  /** Most blocks on one page; each page gets 1..maxBlocks. */
  maxBlocks: number
  templates: SlotTemplate[]
  /** The template owner's event and form: each account gets a copy of both. */
  eventOf: number
  formOf: number
  /** Days of history, oldest first, with the weekly rhythm of each. */
  days: Array<{ day: string; weight: number }>
  /** Daily views of the most popular page; page of rank r gets top / r (Zipf, s = 1). */
  topViews: number
  /** A multiplier coprime with `pages`: popularity rank = (seq × it mod pages) + 1. */
  rankStride: number
  buckets: SketchBucket[]
}

export type Timings = Record<string, number>

async function timed(timings: Timings, step: string, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now()
  await run()
  timings[step] = Math.round(performance.now() - started)
}

async function createWorkTables(db: Db, plan: PopulationPlan): Promise<void> {
  const blob = isPostgres(db) ? 'bytea' : 'blob'
  await sql.raw('DROP TABLE IF EXISTS population_templates').execute(db)
  await sql.raw('DROP TABLE IF EXISTS population_days').execute(db)
  await sql.raw('DROP TABLE IF EXISTS population_sketches').execute(db)
  await sql
    .raw(`${workTable(db, 'population_templates')} (idx integer PRIMARY KEY, type text NOT NULL, data text NOT NULL, record integer NOT NULL)`)
    .execute(db)
  await sql.raw(`${workTable(db, 'population_days')} (idx integer PRIMARY KEY, day text NOT NULL, weight real NOT NULL)`).execute(db)
  await sql.raw(`${workTable(db, 'population_sketches')} (bucket integer PRIMARY KEY, sketch ${blob} NOT NULL, uniques integer NOT NULL)`).execute(db)
  for (const [idx, t] of plan.templates.entries()) {
    await sql`INSERT INTO population_templates (idx, type, data, record) VALUES (${idx}, ${t.type}, ${t.data}, ${t.record === 'eventId' ? 1 : t.record === 'formId' ? 2 : 0})`.execute(
      db,
    )
  }
  for (const [idx, d] of plan.days.entries()) await sql`INSERT INTO population_days (idx, day, weight) VALUES (${idx}, ${d.day}, ${d.weight})`.execute(db)
  for (const [bucket, b] of plan.buckets.entries()) {
    await sql`INSERT INTO population_sketches (bucket, sketch, uniques) VALUES (${bucket}, ${b.sketch}, ${b.uniques})`.execute(db)
  }
}

async function fillAccounts(db: Db, plan: PopulationPlan, firstUser: number): Promise<void> {
  await sql`WITH RECURSIVE ${series(db, 'n', plan.accounts)}
    INSERT INTO users (email, name, password_hash, timezone, language_code, created_at)
    SELECT 'p' || ${plan.run} || '.' || g || '@population.invalid', 'Person ' || g, ${plan.passwordHash}, 'UTC', 'en', ${plan.createdAt} FROM n`.execute(db)
  for (const table of ['events', 'forms']) {
    const columns = table === 'events' ? 'title, description, starts_at, ends_at, timezone, location, link' : 'title, description, fields, submit_label'
    const template = table === 'events' ? plan.eventOf : plan.formOf
    await sql
      .raw(`INSERT INTO ${table} (user_id, ${columns}, created_at, updated_at)
        SELECT u.id, ${columns
          .split(', ')
          .map((c) => `t.${c}`)
          .join(', ')}, t.created_at, t.updated_at FROM users u, ${table} t WHERE u.id >= ${firstUser} AND t.id = ${template}`)
      .execute(db)
  }
}

async function fillPages(db: Db, plan: PopulationPlan, firstUser: number): Promise<void> {
  const perAccount = Math.ceil(plan.pages / plan.accounts)
  const socials = JSON.stringify([{ link: 'https://instagram.com/slotline' }, { link: 'https://github.com/slotline' }].map((s, order) => ({ ...s, order })))
  await sql`WITH RECURSIVE ${series(db, 'k', perAccount)}
    INSERT INTO profiles (user_id, login, login_lower, title, description, socials, is_main, status, created_at, updated_at)
    SELECT u.id, 'p' || ${plan.run} || '_' || (u.id - ${sql.lit(firstUser)}) || '_' || k.g, 'p' || ${plan.run} || '_' || (u.id - ${sql.lit(firstUser)}) || '_' || k.g,
      'Page ' || (u.id - ${sql.lit(firstUser)}) || '.' || k.g, 'A generated page for capacity measurements.', ${socials},
      CASE WHEN k.g = 1 THEN 1 ELSE 0 END, 1, ${plan.createdAt}, ${plan.createdAt}
    FROM users u, k WHERE u.id >= ${sql.lit(firstUser)} AND (u.id - ${sql.lit(firstUser)}) * ${sql.lit(perAccount)} + k.g <= ${sql.lit(plan.pages)}`.execute(db)
}

/**
 * Each owner's event and form, joined by owner: a correlated `min(id)` per block made
 * PostgreSQL walk the events' primary key for each of millions of rows (found at 1 M pages).
 */
async function fillRecords(db: Db, firstUser: number): Promise<void> {
  await sql.raw('DROP TABLE IF EXISTS population_records').execute(db)
  await sql
    .raw(`${workTable(db, 'population_records')} AS
      SELECT e.user_id AS user_id, e.event_id AS event_id, f.form_id AS form_id
      FROM (SELECT user_id, min(id) AS event_id FROM events WHERE user_id >= ${firstUser} GROUP BY user_id) e
      JOIN (SELECT user_id, min(id) AS form_id FROM forms WHERE user_id >= ${firstUser} GROUP BY user_id) f ON f.user_id = e.user_id`)
    .execute(db)
  await sql.raw('CREATE INDEX population_records_user ON population_records (user_id)').execute(db)
}

/**
 * 1..maxBlocks blocks per page (skewed low), cycling through the templates, event and form
 * pointing at the owner's own. The pages of `part` of `parts` (by id), so that parts can load
 * side by side.
 */
async function fillSlots(db: Db, plan: PopulationPlan, firstPage: number, part = 0, parts = 1): Promise<void> {
  // Most pages hold a handful of blocks and a few hold many: u³ of a uniform u in [0, 1)
  // gives a median near 6 and a mean near 11 of 1..maxBlocks.
  const u = `(${mix('CAST(p.id AS bigint) * 7919')} / 2147483647.0)`
  const count = `(1 + CAST(${u} * ${u} * ${u} * ${plan.maxBlocks - 1} AS integer))`
  await sql`WITH RECURSIVE ${series(db, 'pos', plan.maxBlocks)}
    INSERT INTO slots (profile_id, type, position, data, created_at, updated_at)
    SELECT p.id, t.type, pos.g - 1,
      CASE t.record
        WHEN 1 THEN replace(t.data, '"eventId":0', '"eventId":' || r.event_id)
        WHEN 2 THEN replace(t.data, '"formId":0', '"formId":' || r.form_id)
        ELSE t.data END,
      ${plan.createdAt}, ${plan.createdAt}
    FROM profiles p
    JOIN population_records r ON r.user_id = p.user_id
    JOIN pos ON pos.g <= ${sql.raw(count)}
    JOIN population_templates t ON t.idx = (p.id + pos.g) % ${plan.templates.length}
    WHERE p.id >= ${firstPage} AND p.id % ${parts} = ${part}`.execute(db)
}

/** Fills the store per `plan`; answers milliseconds per step. The template owner's rows must exist. */
async function load(db: Db, plan: PopulationPlan): Promise<{ timings: Timings; firstUser: number; firstPage: number }> {
  const timings: Timings = {}
  await createWorkTables(db, plan)
  const next = async (table: 'users' | 'profiles') =>
    Number((await sql<{ n: number | string | null }>`SELECT max(id) AS n FROM ${sql.table(table)}`.execute(db)).rows[0]?.n ?? 0) + 1
  const firstUser = await next('users')
  await timed(timings, 'accounts, events, forms', () => fillAccounts(db, plan, firstUser))
  const firstPage = await next('profiles')
  await timed(timings, 'pages', () => withoutChecks(db, ['profiles'], () => fillPages(db, plan, firstUser)))
  // Fresh statistics, so the planner sees the new rows' real numbers.
  if (isPostgres(db)) await timed(timings, 'analyze', () => sql.raw('ANALYZE users, profiles, events, forms').execute(db))
  await timed(timings, 'records', () => fillRecords(db, firstUser))
  const halves = isPostgres(db) ? [0, 1] : [0]
  await timed(timings, 'blocks', () =>
    withoutChecks(db, ['slots'], () =>
      sideBySide(
        db,
        halves.map((part) => (conn) => fillSlots(conn, plan, firstPage, part, halves.length)),
      ),
    ),
  )
  // The days' months get their partitions first, so no generated day lands in the default one.
  await analyticsPartitions.ensureMonths(db, plan.days[0]!.day.slice(0, 7), plan.days.at(-1)!.day.slice(0, 7))
  await timed(timings, 'analytics', () => withoutChecks(db, POPULATION_ROLLUPS, () => fillAnalytics(db, plan, firstPage, timings)))
  if (isPostgres(db)) await timed(timings, 'analyze again', () => sql.raw(`ANALYZE slots, ${POPULATION_ROLLUPS.join(', ')}`).execute(db))
  for (const t of ['population_templates', 'population_days', 'population_sketches', 'population_records']) await sql.raw(`DROP TABLE ${t}`).execute(db)
  return { timings, firstUser, firstPage }
}

/** Rows the generated population holds per table (for the report). */
async function countRows(db: Db, firstUser: number, firstPage: number): Promise<Record<string, number>> {
  const count = async (query: string) => Number((await sql.raw<{ n: number | string }>(query).execute(db)).rows[0]?.n ?? 0)
  return {
    accounts: await count(`SELECT count(*) AS n FROM users WHERE id >= ${firstUser}`),
    pages: await count(`SELECT count(*) AS n FROM profiles WHERE id >= ${firstPage}`),
    blocks: await count(`SELECT count(*) AS n FROM slots WHERE profile_id >= ${firstPage}`),
    analyticsDays: await count(`SELECT count(*) AS n FROM analytics_daily WHERE profile_id >= ${firstPage}`),
    analyticsMonths: await count(`SELECT count(*) AS n FROM analytics_monthly WHERE profile_id >= ${firstPage}`),
    blockClickDays: await count(`SELECT count(*) AS n FROM analytics_slot_daily WHERE profile_id >= ${firstPage}`),
    socialClickDays: await count(`SELECT count(*) AS n FROM analytics_social_daily WHERE profile_id >= ${firstPage}`),
    breakdownDays: await count(`SELECT count(*) AS n FROM analytics_breakdown_daily WHERE profile_id >= ${firstPage}`),
    accountBreakdownDays: await count(`SELECT count(*) AS n FROM analytics_account_breakdown_daily WHERE user_id >= ${firstUser}`),
  }
}

export const populationRepository = Object.freeze({ load, countRows })
