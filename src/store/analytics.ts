import { sql } from 'kysely'
import { type Db, isPostgres } from './db.ts'

/** One page's totals for one day in its owner's time zone. */
export interface DailyRow {
  profileId: number
  day: string
  views: number
  clicks: number
  /** Serialised HyperLogLog of the day's visitors. */
  visitors: Uint8Array
}

export interface SlotDailyRow {
  profileId: number
  slotId: number
  day: string
  clicks: number
  /** Serialised HyperLogLog of the visitors who clicked the block that day. */
  visitors: Uint8Array
}

export interface SocialDailyRow {
  profileId: number
  socialIndex: number
  day: string
  clicks: number
}

// Chunked writes keep every statement under SQLite's bound-parameter limit.
const CHUNK = 500

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK))
  return out
}

const toBuffer = (b: Uint8Array) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength))

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

async function readDaily(db: Db, profileIds: number[], from: string, to: string): Promise<DailyRow[]> {
  if (profileIds.length === 0) return []
  const rows = await db
    .selectFrom('analytics_daily')
    .selectAll()
    .where('profile_id', 'in', profileIds)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .orderBy('day')
    .execute()
  return rows.map((r) => ({ profileId: r.profile_id, day: r.day, views: r.views, clicks: r.clicks, visitors: r.visitors }))
}

async function readSlotDaily(db: Db, profileIds: number[], from: string, to: string): Promise<SlotDailyRow[]> {
  if (profileIds.length === 0) return []
  const rows = await db
    .selectFrom('analytics_slot_daily')
    .selectAll()
    .where('profile_id', 'in', profileIds)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute()
  return rows.map((r) => ({ profileId: r.profile_id, slotId: r.slot_id, day: r.day, clicks: r.clicks, visitors: r.visitors }))
}

async function readSocialDaily(db: Db, profileIds: number[], from: string, to: string): Promise<SocialDailyRow[]> {
  if (profileIds.length === 0) return []
  const rows = await db
    .selectFrom('analytics_social_daily')
    .selectAll()
    .where('profile_id', 'in', profileIds)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute()
  return rows.map((r) => ({ profileId: r.profile_id, socialIndex: r.social_index, day: r.day, clicks: r.clicks }))
}

/** Stored sketches for the given (page, day) keys, keyed `${profileId} ${day}`. */
async function dailySketches(db: Db, keys: Array<{ profileId: number; day: string }>): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>()
  if (keys.length === 0) return out
  const wanted = new Set(keys.map((k) => `${k.profileId} ${k.day}`))
  const rows = await db
    .selectFrom('analytics_daily')
    .select(['profile_id', 'day', 'visitors'])
    .where('profile_id', 'in', [...new Set(keys.map((k) => k.profileId))])
    .where('day', 'in', [...new Set(keys.map((k) => k.day))])
    .execute()
  for (const r of rows) {
    const key = `${r.profile_id} ${r.day}`
    if (wanted.has(key)) out.set(key, r.visitors)
  }
  return out
}

/** Stored sketches for the given (page, day, slot) keys, keyed `${profileId} ${day} ${slotId}`. */
async function slotSketches(db: Db, keys: Array<{ profileId: number; day: string; slotId: number }>): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>()
  if (keys.length === 0) return out
  const wanted = new Set(keys.map((k) => `${k.profileId} ${k.day} ${k.slotId}`))
  const rows = await db
    .selectFrom('analytics_slot_daily')
    .select(['profile_id', 'day', 'slot_id', 'visitors'])
    .where('profile_id', 'in', [...new Set(keys.map((k) => k.profileId))])
    .where('day', 'in', [...new Set(keys.map((k) => k.day))])
    .execute()
  for (const r of rows) {
    const key = `${r.profile_id} ${r.day} ${r.slot_id}`
    if (wanted.has(key)) out.set(key, r.visitors)
  }
  return out
}

/**
 * Adds counts to the day's row and replaces its sketch with `visitors`, which the caller has
 * already merged with the stored one under lockWriter. Counts are added in SQL so they stay
 * exact even if a sketch merge ever raced.
 */
async function addDaily(db: Db, rows: DailyRow[]): Promise<void> {
  for (const part of chunks(rows)) {
    await db
      .insertInto('analytics_daily')
      .values(part.map((r) => ({ profile_id: r.profileId, day: r.day, views: r.views, clicks: r.clicks, visitors: toBuffer(r.visitors) })))
      .onConflict((oc) =>
        oc.columns(['profile_id', 'day']).doUpdateSet((eb) => ({
          views: sql`analytics_daily.views + ${eb.ref('excluded.views')}`,
          clicks: sql`analytics_daily.clicks + ${eb.ref('excluded.clicks')}`,
          visitors: eb.ref('excluded.visitors'),
        })),
      )
      .execute()
  }
}

async function addSlotDaily(db: Db, rows: SlotDailyRow[]): Promise<void> {
  for (const part of chunks(rows)) {
    await db
      .insertInto('analytics_slot_daily')
      .values(
        part.map((r) => ({ profile_id: r.profileId, slot_id: r.slotId, day: r.day, clicks: r.clicks, visitors: toBuffer(r.visitors) })),
      )
      .onConflict((oc) =>
        oc.columns(['profile_id', 'day', 'slot_id']).doUpdateSet((eb) => ({
          clicks: sql`analytics_slot_daily.clicks + ${eb.ref('excluded.clicks')}`,
          visitors: eb.ref('excluded.visitors'),
        })),
      )
      .execute()
  }
}

async function addSocialDaily(db: Db, rows: SocialDailyRow[]): Promise<void> {
  for (const part of chunks(rows)) {
    await db
      .insertInto('analytics_social_daily')
      .values(part.map((r) => ({ profile_id: r.profileId, social_index: r.socialIndex, day: r.day, clicks: r.clicks })))
      .onConflict((oc) =>
        oc.columns(['profile_id', 'day', 'social_index']).doUpdateSet((eb) => ({
          clicks: sql`analytics_social_daily.clicks + ${eb.ref('excluded.clicks')}`,
        })),
      )
      .execute()
  }
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

/** Drops every rollup dated before `day`; returns how many rows went. */
async function purgeBefore(db: Db, day: string): Promise<number> {
  let removed = 0
  for (const table of ['analytics_daily', 'analytics_slot_daily', 'analytics_social_daily'] as const) {
    const result = await db.deleteFrom(table).where('day', '<', day).executeTakeFirst()
    removed += Number(result.numDeletedRows)
  }
  return removed
}

/** Removes one page's rollups between two days inclusive (the seed command replaces history). */
async function deleteRange(db: Db, profileId: number, from: string, to: string): Promise<void> {
  for (const table of ['analytics_daily', 'analytics_slot_daily', 'analytics_social_daily'] as const) {
    await db.deleteFrom(table).where('profile_id', '=', profileId).where('day', '>=', from).where('day', '<=', to).execute()
  }
}

export const analyticsRepository = Object.freeze({
  lockWriter,
  ownerTimeZones,
  readDaily,
  readSlotDaily,
  readSocialDaily,
  dailySketches,
  slotSketches,
  addDaily,
  addSlotDaily,
  addSocialDaily,
  firstDay,
  purgeBefore,
  deleteRange,
})
