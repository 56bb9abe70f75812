import { type ExpressionBuilder, type Insertable, type Kysely, type Selectable, sql } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import { type Db, isPostgres } from './db.ts'
import type { AnalyticsDailyTable, AnalyticsSlotDailyTable, AnalyticsSocialDailyTable, Database } from './schema.ts'

/** One page's counts for one day in its owner's time zone (`uniques`: the estimate of the day's visitor sketch). */
export type DailyCounts = CamelCased<Omit<Selectable<AnalyticsDailyTable>, 'visitors'>>

/** Counts for one day of one page, or of several pages summed (uniques then sums the pages' estimates). */
export type DayCounts = Omit<DailyCounts, 'profileId'>

/** A day's counts with its serialised visitor sketch, as the writer stores them. */
export interface DailyRow extends DailyCounts {
  visitors: Uint8Array
}

/** A block's clicks for a day, with the serialised HyperLogLog of the visitors who clicked it. */
export interface SlotDailyRow extends CamelCased<Omit<Selectable<AnalyticsSlotDailyTable>, 'visitors'>> {
  visitors: Uint8Array
}

export type SocialDailyRow = CamelCased<Selectable<AnalyticsSocialDailyTable>>

/** A serialised sketch of one page (or block, when slotId is set) for a day or a month. */
export interface SketchRow {
  profileId: number
  slotId?: number
  /** YYYY-MM-DD for a day, YYYY-MM for a month. */
  period: string
  visitors: Uint8Array
}

export interface DayRange {
  from: string
  to: string
}

// Chunked statements stay under SQLite's bound-parameter limit.
const CHUNK = 500

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK))
  return out
}

const toBuffer = (b: Uint8Array) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength))

type DayTable = 'analytics_daily' | 'analytics_slot_daily'
/** `day` within any of the ranges. */
const inRanges = (ranges: DayRange[]) => (eb: ExpressionBuilder<Database, DayTable>) =>
  eb.or(ranges.map((r) => eb.and([eb('day', '>=', r.from), eb('day', '<=', r.to)])))

/**
 * Makes the current transaction the only analytics writer: sketches are merged read-modify-write,
 * so two instances flushing the same day at once would otherwise drop one side's visitors.
 * SQLite has a single writer already.
 */
async function lockWriter(db: Db): Promise<void> {
  if (isPostgres(db)) await sql`SELECT pg_advisory_xact_lock(hashtext('slotline.analytics'))`.execute(db)
}

/** The owner's time zone for each existing page (deleted pages are absent). */
async function ownerTimeZones(db: Db, profileIds: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>()
  for (const ids of chunks(profileIds)) {
    const rows = await db
      .selectFrom('profiles')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .select(['profiles.id as id', 'users.timezone as timezone'])
      .where('profiles.id', 'in', ids)
      .execute()
    for (const r of rows) out.set(r.id, r.timezone)
  }
  return out
}

async function readDailyCounts(db: Db, profileIds: number[], from: string, to: string): Promise<DailyCounts[]> {
  if (profileIds.length === 0) return []
  const rows = await db
    .selectFrom('analytics_daily')
    .select(['profile_id', 'day', 'views', 'clicks', 'uniques'])
    .where('profile_id', 'in', profileIds)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .orderBy('day')
    .execute()
  return rows.map((r) => camelRow(r))
}

/** The pages' counts summed per day, by the database: a year of 100 pages is 365 rows, not 36,500. */
async function readDailyTotals(db: Db, profileIds: number[], from: string, to: string): Promise<DayCounts[]> {
  if (profileIds.length === 0) return []
  const ids = sql.join(profileIds.map((id) => sql`${id}`))
  const { rows } = await sql<{ day: string; views: number | string; clicks: number | string; uniques: number | string }>`
    SELECT day, SUM(views) AS views, SUM(clicks) AS clicks, SUM(uniques) AS uniques FROM analytics_daily
    WHERE profile_id IN (${ids}) AND day >= ${from} AND day <= ${to}
    GROUP BY day ORDER BY day`.execute(db)
  // PostgreSQL sums integers as bigint (parsed as number, see db.ts) or numeric (a string).
  return rows.map((r) => ({ day: r.day, views: Number(r.views), clicks: Number(r.clicks), uniques: Number(r.uniques) }))
}

/** Views and clicks of each page over the range, summed by the database. */
async function pageTotals(db: Db, profileIds: number[], range: DayRange): Promise<Array<{ profileId: number; views: number; clicks: number }>> {
  if (profileIds.length === 0) return []
  const ids = sql.join(profileIds.map((id) => sql`${id}`))
  const { rows } = await sql<{ profile_id: number; views: number | string; clicks: number | string }>`
    SELECT profile_id, SUM(views) AS views, SUM(clicks) AS clicks FROM analytics_daily
    WHERE profile_id IN (${ids}) AND day >= ${range.from} AND day <= ${range.to}
    GROUP BY profile_id`.execute(db)
  return rows.map((r) => ({ profileId: r.profile_id, views: Number(r.views), clicks: Number(r.clicks) }))
}

async function readDailySketches(db: Db, profileIds: number[], ranges: DayRange[]): Promise<SketchRow[]> {
  if (profileIds.length === 0 || ranges.length === 0) return []
  const rows = await db
    .selectFrom('analytics_daily')
    .select(['profile_id', 'day as period', 'visitors'])
    .where('profile_id', 'in', profileIds)
    .where(inRanges(ranges))
    .execute()
  return rows.map((r) => camelRow(r))
}

async function readMonthlySketches(db: Db, profileIds: number[], months: string[]): Promise<SketchRow[]> {
  if (profileIds.length === 0 || months.length === 0) return []
  const rows = await db
    .selectFrom('analytics_monthly')
    .select(['profile_id', 'month as period', 'visitors'])
    .where('profile_id', 'in', profileIds)
    .where('month', 'in', months)
    .execute()
  return rows.map((r) => camelRow(r))
}

/** Clicks per block (or per social link) in `current` and in `previous`, summed by the database. */
export interface ClickTotals {
  key: number
  clicks: number
  previousClicks: number
}

async function clickTotals(
  db: Db,
  table: 'analytics_slot_daily' | 'analytics_social_daily',
  profileId: number,
  current: DayRange,
  previous: DayRange | undefined,
): Promise<ClickTotals[]> {
  const column = table === 'analytics_slot_daily' ? 'slot_id' : 'social_index'
  const from = previous?.from ?? current.from
  const { rows } = await sql<{ key: number; clicks: number | string; previous_clicks: number | string }>`
    SELECT ${sql.ref(column)} AS key,
      SUM(CASE WHEN day >= ${current.from} THEN clicks ELSE 0 END) AS clicks,
      SUM(CASE WHEN day < ${current.from} THEN clicks ELSE 0 END) AS previous_clicks
    FROM ${sql.table(table)}
    WHERE profile_id = ${profileId} AND day >= ${from} AND day <= ${current.to}
    GROUP BY ${sql.ref(column)}`.execute(db)
  // PostgreSQL sums integers as bigint (parsed as number, see db.ts) or numeric (a string).
  return rows.map((r) => ({ key: r.key, clicks: Number(r.clicks), previousClicks: Number(r.previous_clicks) }))
}

const slotClickTotals = (db: Db, profileId: number, current: DayRange, previous?: DayRange) =>
  clickTotals(db, 'analytics_slot_daily', profileId, current, previous)
const socialClickTotals = (db: Db, profileId: number, current: DayRange, previous?: DayRange) =>
  clickTotals(db, 'analytics_social_daily', profileId, current, previous)

async function readSlotDailySketches(db: Db, profileIds: number[], ranges: DayRange[]): Promise<SketchRow[]> {
  if (profileIds.length === 0 || ranges.length === 0) return []
  const rows = await db
    .selectFrom('analytics_slot_daily')
    .select(['profile_id', 'slot_id', 'day as period', 'visitors'])
    .where('profile_id', 'in', profileIds)
    .where(inRanges(ranges))
    .execute()
  return rows.map((r) => camelRow(r))
}

async function readSlotMonthlySketches(db: Db, profileIds: number[], months: string[]): Promise<SketchRow[]> {
  if (profileIds.length === 0 || months.length === 0) return []
  const rows = await db
    .selectFrom('analytics_slot_monthly')
    .select(['profile_id', 'slot_id', 'month as period', 'visitors'])
    .where('profile_id', 'in', profileIds)
    .where('month', 'in', months)
    .execute()
  return rows.map((r) => camelRow(r))
}

/** Keys for the stored-sketch lookups below: `${profileId} ${period}` or `${profileId} ${period} ${slotId}`. */
const keyOf = (profileId: number, period: string, slotId?: number) => (slotId === undefined ? `${profileId} ${period}` : `${profileId} ${period} ${slotId}`)

/** The stored sketches for the given keys of one of the four sketch tables, by keyOf(). */
async function storedSketches(
  db: Db,
  table: 'analytics_daily' | 'analytics_slot_daily' | 'analytics_monthly' | 'analytics_slot_monthly',
  keys: Array<{ profileId: number; period: string; slotId?: number }>,
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>()
  if (keys.length === 0) return out
  const wanted = new Set(keys.map((k) => keyOf(k.profileId, k.period, k.slotId)))
  const column = table.endsWith('monthly') ? 'month' : 'day'
  const bySlot = table.includes('slot')
  for (const part of chunks(keys)) {
    const rows: any[] = await (db as any)
      .selectFrom(table)
      .select(['profile_id', `${column} as period`, 'visitors', ...(bySlot ? ['slot_id'] : [])])
      .where('profile_id', 'in', [...new Set(part.map((k) => k.profileId))])
      .where(column, 'in', [...new Set(part.map((k) => k.period))])
      .execute()
    for (const r of rows) {
      const key = keyOf(r.profile_id, r.period, bySlot ? r.slot_id : undefined)
      if (wanted.has(key)) out.set(key, r.visitors)
    }
  }
  return out
}

type RollupTable =
  | 'analytics_daily'
  | 'analytics_slot_daily'
  | 'analytics_social_daily'
  | 'analytics_monthly'
  | 'analytics_slot_monthly'
  | 'analytics_breakdown_daily'
  | 'analytics_breakdown_monthly'
  | 'analytics_account_breakdown_daily'
  | 'analytics_account_breakdown_monthly'
type RollupColumn<T extends RollupTable> = keyof Database[T] & string

/**
 * Writes rollup rows in chunks. A row whose `key` is stored already adds its `add` columns to
 * the stored ones, in SQL so counts stay exact whatever happens to sketches, and its `replace`
 * columns take the place of the stored ones (sketches the caller merged under lockWriter).
 */
async function upsertRollups<T extends RollupTable>(
  db: Db,
  table: T,
  rows: Array<Insertable<Database[T]>>,
  merge: { key: Array<RollupColumn<T>>; add?: Array<RollupColumn<T>>; replace?: Array<RollupColumn<T>> },
): Promise<void> {
  // One statement for five tables: their column unions are more than Kysely's types can follow.
  const untyped = db as unknown as Kysely<any>
  for (const part of chunks(rows)) {
    await untyped
      .insertInto(table as string)
      .values(part)
      .onConflict((oc) =>
        oc.columns(merge.key).doUpdateSet((eb) => {
          const set: Record<string, unknown> = {}
          for (const c of merge.add ?? []) set[c] = sql`${sql.ref(`${table}.${c}`)} + ${eb.ref(`excluded.${c}`)}`
          for (const c of merge.replace ?? []) set[c] = eb.ref(`excluded.${c}`)
          return set
        }),
      )
      .execute()
  }
}

/**
 * Adds counts to the day's row and replaces its sketch (and estimate) with `visitors`, which the
 * caller has already merged with the stored one under lockWriter.
 */
async function addDaily(db: Db, rows: DailyRow[]): Promise<void> {
  await upsertRollups(
    db,
    'analytics_daily',
    rows.map((r) => ({ profile_id: r.profileId, day: r.day, views: r.views, clicks: r.clicks, uniques: r.uniques, visitors: toBuffer(r.visitors) })),
    { key: ['profile_id', 'day'], add: ['views', 'clicks'], replace: ['uniques', 'visitors'] },
  )
}

async function addSlotDaily(db: Db, rows: SlotDailyRow[]): Promise<void> {
  await upsertRollups(
    db,
    'analytics_slot_daily',
    rows.map((r) => ({ profile_id: r.profileId, slot_id: r.slotId, day: r.day, clicks: r.clicks, visitors: toBuffer(r.visitors) })),
    { key: ['profile_id', 'day', 'slot_id'], add: ['clicks'], replace: ['visitors'] },
  )
}

async function addSocialDaily(db: Db, rows: SocialDailyRow[]): Promise<void> {
  await upsertRollups(
    db,
    'analytics_social_daily',
    rows.map((r) => ({ profile_id: r.profileId, social_index: r.socialIndex, day: r.day, clicks: r.clicks })),
    { key: ['profile_id', 'day', 'social_index'], add: ['clicks'] },
  )
}

/** The dimensions a visit is counted under, beside its page and day. */
export const BREAKDOWN_DIMENSIONS = ['source', 'country', 'device', 'browser'] as const
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number]

/** Views and clicks of one value of one dimension, for a day (YYYY-MM-DD) or a month (YYYY-MM). */
export interface BreakdownRow {
  profileId: number
  period: string
  dimension: BreakdownDimension
  value: string
  views: number
  clicks: number
}

/** Sums rows under a key; the first row of a key is copied with the key's period. */
function summed(rows: BreakdownRow[], keyOf: (r: BreakdownRow) => string, periodOf: (r: BreakdownRow) => string): BreakdownRow[] {
  const out = new Map<string, BreakdownRow>()
  for (const r of rows) {
    const key = keyOf(r)
    const m = out.get(key)
    if (m) {
      m.views += r.views
      m.clicks += r.clicks
    } else out.set(key, { ...r, period: periodOf(r) })
  }
  return [...out.values()]
}

/**
 * Adds the counts to each row's day and to its month, and to those of the page's account
 * in SQL, so concurrent writers stay exact. Rows of pages gone are dropped.
 */
async function addBreakdowns(db: Db, rows: BreakdownRow[]): Promise<void> {
  if (rows.length === 0) return
  const owners = await pageOwners(db, [...new Set(rows.map((r) => r.profileId))])
  const kept = rows.filter((r) => owners.has(r.profileId))
  const month = (r: BreakdownRow) => r.period.slice(0, 7)
  const day = (r: BreakdownRow) => r.period
  const months = summed(kept, (r) => `${r.profileId} ${month(r)} ${r.dimension} ${r.value}`, month)
  // Keyed by owner: the profileId left in these rows is one of the account's pages, unused.
  const accountDays = summed(kept, (r) => `${owners.get(r.profileId)} ${r.period} ${r.dimension} ${r.value}`, day)
  const accountMonths = summed(months, (r) => `${owners.get(r.profileId)} ${r.period} ${r.dimension} ${r.value}`, month)
  const merge = { add: ['views', 'clicks'] as Array<'views' | 'clicks'> }
  await upsertRollups(
    db,
    'analytics_breakdown_daily',
    kept.map((r) => ({ profile_id: r.profileId, day: r.period, dimension: r.dimension, value: r.value, views: r.views, clicks: r.clicks })),
    { key: ['profile_id', 'day', 'dimension', 'value'], ...merge },
  )
  await upsertRollups(
    db,
    'analytics_breakdown_monthly',
    months.map((r) => ({ profile_id: r.profileId, month: r.period, dimension: r.dimension, value: r.value, views: r.views, clicks: r.clicks })),
    { key: ['profile_id', 'month', 'dimension', 'value'], ...merge },
  )
  await upsertRollups(
    db,
    'analytics_account_breakdown_daily',
    accountDays.map((r) => ({ user_id: owners.get(r.profileId)!, day: r.period, dimension: r.dimension, value: r.value, views: r.views, clicks: r.clicks })),
    { key: ['user_id', 'day', 'dimension', 'value'], ...merge },
  )
  await upsertRollups(
    db,
    'analytics_account_breakdown_monthly',
    accountMonths.map((r) => ({
      user_id: owners.get(r.profileId)!,
      month: r.period,
      dimension: r.dimension,
      value: r.value,
      views: r.views,
      clicks: r.clicks,
    })),
    { key: ['user_id', 'month', 'dimension', 'value'], ...merge },
  )
}

/** The owner (user id) of each existing page. */
async function pageOwners(db: Db, profileIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>()
  for (const ids of chunks(profileIds)) {
    const rows = await db.selectFrom('profiles').select(['id', 'user_id']).where('id', 'in', ids).execute()
    for (const r of rows) out.set(r.id, r.user_id)
  }
  return out
}

/**
 * Recomputes an account's breakdown days in `range`, and the months they touch, from its pages'
 * rows: for writers that replace pages' rows instead of adding to them (the seed command).
 */
async function rebuildAccountBreakdowns(db: Db, userId: number, range: DayRange): Promise<void> {
  const from = range.from.slice(0, 7)
  const to = range.to.slice(0, 7)
  await db.deleteFrom('analytics_account_breakdown_daily').where('user_id', '=', userId).where('day', '>=', range.from).where('day', '<=', range.to).execute()
  await sql`INSERT INTO analytics_account_breakdown_daily (user_id, day, dimension, value, views, clicks)
    SELECT p.user_id, b.day, b.dimension, b.value, SUM(b.views), SUM(b.clicks)
    FROM analytics_breakdown_daily b JOIN profiles p ON p.id = b.profile_id
    WHERE p.user_id = ${userId} AND b.day >= ${range.from} AND b.day <= ${range.to}
    GROUP BY p.user_id, b.day, b.dimension, b.value`.execute(db)
  await db.deleteFrom('analytics_account_breakdown_monthly').where('user_id', '=', userId).where('month', '>=', from).where('month', '<=', to).execute()
  await sql`INSERT INTO analytics_account_breakdown_monthly (user_id, month, dimension, value, views, clicks)
    SELECT p.user_id, b.month, b.dimension, b.value, SUM(b.views), SUM(b.clicks)
    FROM analytics_breakdown_monthly b JOIN profiles p ON p.id = b.profile_id
    WHERE p.user_id = ${userId} AND b.month >= ${from} AND b.month <= ${to}
    GROUP BY p.user_id, b.month, b.dimension, b.value`.execute(db)
}

/**
 * Takes a page's breakdown counters out of its account's, before the page is deleted (its own
 * rows then go with it). A value no other page of the account had is dropped, not left at 0,
 * so the account lists exactly what summing its remaining pages would.
 */
async function forgetPage(db: Db, profileId: number): Promise<void> {
  for (const [account, pages, period] of [
    ['analytics_account_breakdown_daily', 'analytics_breakdown_daily', 'day'],
    ['analytics_account_breakdown_monthly', 'analytics_breakdown_monthly', 'month'],
  ] as const) {
    await sql`UPDATE ${sql.table(account)} AS a SET views = a.views - b.views, clicks = a.clicks - b.clicks
      FROM ${sql.table(pages)} AS b JOIN profiles AS p ON p.id = b.profile_id
      WHERE b.profile_id = ${profileId} AND a.user_id = p.user_id AND a.${sql.ref(period)} = b.${sql.ref(period)}
        AND a.dimension = b.dimension AND a.value = b.value`.execute(db)
    await sql`DELETE FROM ${sql.table(account)} WHERE views = 0 AND clicks = 0
      AND user_id = (SELECT user_id FROM profiles WHERE id = ${profileId})`.execute(db)
  }
}

/** Recomputes the pages' month breakdowns from their days, for writers that replace days (the seed command). */
async function rebuildBreakdownMonths(db: Db, profileId: number, months: string[]): Promise<void> {
  for (const month of months) {
    await sql`INSERT INTO analytics_breakdown_monthly (profile_id, month, dimension, value, views, clicks)
      SELECT profile_id, ${month}, dimension, value, SUM(views), SUM(clicks) FROM analytics_breakdown_daily
      WHERE profile_id = ${profileId} AND day >= ${`${month}-01`} AND day <= ${`${month}-31`}
      GROUP BY profile_id, dimension, value`.execute(db)
  }
}

/** Summed views and clicks per dimension and value over whole months and day ranges, for the pages. */
export interface BreakdownTotal {
  dimension: BreakdownDimension
  value: string
  views: number
  clicks: number
}

/** Whose counters a total sums: pages' own rows, or the sums their accounts keep. */
const BREAKDOWN_TABLES = {
  pages: { daily: 'analytics_breakdown_daily', monthly: 'analytics_breakdown_monthly', owner: 'profile_id' },
  accounts: { daily: 'analytics_account_breakdown_daily', monthly: 'analytics_account_breakdown_monthly', owner: 'user_id' },
} as const

/** Views and clicks per dimension and value over whole months and day ranges, summed by the database. */
async function summedBreakdowns(
  db: Db,
  whose: keyof typeof BREAKDOWN_TABLES,
  ownerIds: number[],
  months: string[],
  days: DayRange[],
): Promise<BreakdownTotal[]> {
  if (ownerIds.length === 0 || (months.length === 0 && days.length === 0)) return []
  const { daily, monthly, owner } = BREAKDOWN_TABLES[whose]
  const ids = sql.join(ownerIds.map((id) => sql`${id}`))
  const parts = []
  if (months.length) {
    parts.push(sql`SELECT dimension, value, views, clicks FROM ${sql.table(monthly)}
      WHERE ${sql.ref(owner)} IN (${ids}) AND month IN (${sql.join(months.map((m) => sql`${m}`))})`)
  }
  for (const r of days) {
    parts.push(sql`SELECT dimension, value, views, clicks FROM ${sql.table(daily)}
      WHERE ${sql.ref(owner)} IN (${ids}) AND day >= ${r.from} AND day <= ${r.to}`)
  }
  const { rows } = await sql<{ dimension: BreakdownDimension; value: string; views: number | string; clicks: number | string }>`
    SELECT dimension, value, SUM(views) AS views, SUM(clicks) AS clicks
    FROM (${sql.join(parts, sql` UNION ALL `)}) AS counted
    GROUP BY dimension, value`.execute(db)
  // PostgreSQL sums integers as bigint (parsed as number, see db.ts) or numeric (a string).
  return rows.map((r) => ({ dimension: r.dimension, value: r.value, views: Number(r.views), clicks: Number(r.clicks) }))
}

const breakdownTotals = (db: Db, profileIds: number[], months: string[], days: DayRange[]) => summedBreakdowns(db, 'pages', profileIds, months, days)

/** breakdownTotals for all pages of an account, from the account's own counters. */
const accountBreakdownTotals = (db: Db, userId: number, months: string[], days: DayRange[]) => summedBreakdowns(db, 'accounts', [userId], months, days)

/** Stores month sketches (page ones, or block ones when slotId is set), already merged by the caller. */
async function putMonthly(db: Db, rows: SketchRow[]): Promise<void> {
  const pages = rows.filter((r) => r.slotId === undefined)
  const slots = rows.filter((r) => r.slotId !== undefined)
  await upsertRollups(
    db,
    'analytics_monthly',
    pages.map((r) => ({ profile_id: r.profileId, month: r.period, visitors: toBuffer(r.visitors) })),
    { key: ['profile_id', 'month'], replace: ['visitors'] },
  )
  await upsertRollups(
    db,
    'analytics_slot_monthly',
    slots.map((r) => ({ profile_id: r.profileId, slot_id: r.slotId!, month: r.period, visitors: toBuffer(r.visitors) })),
    { key: ['profile_id', 'month', 'slot_id'], replace: ['visitors'] },
  )
}

/** The earliest stored day among the pages, or undefined when they have no data. */
async function firstDay(db: Db, profileIds: number[]): Promise<string | undefined> {
  if (profileIds.length === 0) return undefined
  const row = await db
    .selectFrom('analytics_daily')
    .select((eb) => eb.fn.min('day').as('first'))
    .where('profile_id', 'in', profileIds)
    .executeTakeFirst()
  return row?.first ?? undefined
}

/** Drops every rollup dated before `day` (month sketches of earlier months); returns how many pages' rows went. */
async function purgeBefore(db: Db, day: string): Promise<number> {
  let removed = 0
  for (const table of ['analytics_daily', 'analytics_slot_daily', 'analytics_social_daily', 'analytics_breakdown_daily'] as const) {
    removed += Number((await db.deleteFrom(table).where('day', '<', day).executeTakeFirst()).numDeletedRows)
  }
  for (const table of ['analytics_monthly', 'analytics_slot_monthly', 'analytics_breakdown_monthly'] as const) {
    removed += Number((await db.deleteFrom(table).where('month', '<', day.slice(0, 7)).executeTakeFirst()).numDeletedRows)
  }
  // The accounts' sums of the pages' rows go with them, uncounted: they are not rows of their own.
  await db.deleteFrom('analytics_account_breakdown_daily').where('day', '<', day).execute()
  await db.deleteFrom('analytics_account_breakdown_monthly').where('month', '<', day.slice(0, 7)).execute()
  return removed
}

/** Removes one page's daily rollups between two days inclusive (the seed command replaces history). */
async function deleteDays(db: Db, profileId: number, range: DayRange): Promise<void> {
  for (const table of ['analytics_daily', 'analytics_slot_daily', 'analytics_social_daily', 'analytics_breakdown_daily'] as const) {
    await db.deleteFrom(table).where('profile_id', '=', profileId).where('day', '>=', range.from).where('day', '<=', range.to).execute()
  }
}

/** Removes one page's month sketches for the given months (before they are rebuilt). */
async function deleteMonths(db: Db, profileId: number, months: string[]): Promise<void> {
  if (months.length === 0) return
  for (const table of ['analytics_monthly', 'analytics_slot_monthly', 'analytics_breakdown_monthly'] as const) {
    await db.deleteFrom(table).where('profile_id', '=', profileId).where('month', 'in', months).execute()
  }
}

export const analyticsRepository = Object.freeze({
  lockWriter,
  ownerTimeZones,
  readDailyCounts,
  readDailyTotals,
  pageTotals,
  readDailySketches,
  readMonthlySketches,
  slotClickTotals,
  socialClickTotals,
  readSlotDailySketches,
  readSlotMonthlySketches,
  storedSketches,
  addDaily,
  addSlotDaily,
  addSocialDaily,
  putMonthly,
  addBreakdowns,
  breakdownTotals,
  accountBreakdownTotals,
  rebuildBreakdownMonths,
  rebuildAccountBreakdowns,
  forgetPage,
  firstDay,
  purgeBefore,
  deleteDays,
  deleteMonths,
})
