import { type Selectable, sql } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import { countRows, type Db, isPostgres, nowIso, prepared } from './db.ts'
import type { ProfilesTable } from './schema.ts'

export interface Social {
  link: string
  order: number
}

type Row = Selectable<ProfilesTable>

export type SeoSubject = 'person' | 'organization'

/** A stored page: its row, with `socials` parsed and the 0/1 columns as booleans. */
export interface StoredProfile extends CamelCased<Omit<Row, 'socials' | 'is_main' | 'status' | 'slots_revision' | 'seo_subject'>> {
  socials: Social[]
  seoSubject: SeoSubject
  isMain: boolean
  status: boolean
  /** Moves on every write to the page's slots: a copy made at one revision is fresh while it holds. */
  slotsRevision: number
}

const toProfile = (r: Row): StoredProfile =>
  camelRow(r, {
    socials: JSON.parse(r.socials),
    seoSubject: r.seo_subject === 'organization' ? 'organization' : 'person',
    isMain: r.is_main === 1,
    status: r.status === 1,
    slotsRevision: Number(r.slots_revision),
  })

export type ProfileChanges = Partial<
  Pick<
    StoredProfile,
    | 'login'
    | 'title'
    | 'description'
    | 'avatar'
    | 'bgImage'
    | 'socials'
    | 'themeId'
    | 'languageId'
    | 'isMain'
    | 'status'
    | 'seoTitle'
    | 'seoDescription'
    | 'seoSubject'
  >
>

async function insert(db: Db, p: { userId: number; login: string; isMain: boolean }): Promise<StoredProfile> {
  const now = nowIso()
  const row = await db
    .insertInto('profiles')
    .values({
      user_id: p.userId,
      login: p.login,
      login_lower: p.login.toLowerCase(),
      socials: '[]',
      theme_id: 1,
      is_main: p.isMain ? 1 : 0,
      status: 1,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toProfile(row)
}

async function update(db: Db, id: number, changes: ProfileChanges): Promise<StoredProfile> {
  const set: Record<string, unknown> = { updated_at: nowIso() }
  if (changes.login !== undefined) {
    set.login = changes.login
    set.login_lower = changes.login.toLowerCase()
  }
  if (changes.title !== undefined) set.title = changes.title
  if (changes.description !== undefined) set.description = changes.description
  if (changes.avatar !== undefined) set.avatar = changes.avatar
  if (changes.bgImage !== undefined) set.bg_image = changes.bgImage
  if (changes.socials !== undefined) set.socials = JSON.stringify(changes.socials)
  if (changes.themeId !== undefined) set.theme_id = changes.themeId
  if (changes.languageId !== undefined) set.language_id = changes.languageId
  if (changes.seoTitle !== undefined) set.seo_title = changes.seoTitle
  if (changes.seoDescription !== undefined) set.seo_description = changes.seoDescription
  if (changes.seoSubject !== undefined) set.seo_subject = changes.seoSubject
  if (changes.isMain !== undefined) set.is_main = changes.isMain ? 1 : 0
  if (changes.status !== undefined) set.status = changes.status ? 1 : 0
  const row = await db.updateTable('profiles').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
  return toProfile(row)
}

// Compiled once: every API read of a page resolves its {profileKey} with one of these.
const byId = prepared((db, id: number) => db.selectFrom('profiles').selectAll().where('id', '=', id))
const byLogin = prepared((db, loginLower: string) => db.selectFrom('profiles').selectAll().where('login_lower', '=', loginLower))

async function findById(db: Db, id: number): Promise<StoredProfile | undefined> {
  const [row] = await byId(db, id)
  return row && toProfile(row)
}

async function findByLogin(db: Db, login: string): Promise<StoredProfile | undefined> {
  const [row] = await byLogin(db, login.toLowerCase())
  return row && toProfile(row)
}

async function listByUser(db: Db, userId: number): Promise<StoredProfile[]> {
  const rows = await db.selectFrom('profiles').selectAll().where('user_id', '=', userId).orderBy('id').execute()
  return rows.map(toProfile)
}

async function countByUser(db: Db, userId: number): Promise<number> {
  return countRows(db.selectFrom('profiles').where('user_id', '=', userId))
}

/**
 * Serialises writers of one page: on PostgreSQL a row lock held to the end of the
 * transaction; SQLite already runs one writer at a time on its single connection.
 */
async function lockForWrite(db: Db, id: number): Promise<void> {
  if (isPostgres(db)) await sql`SELECT id FROM profiles WHERE id = ${id} FOR UPDATE`.execute(db)
}

/** Serialises writers of one user's profile set (creation limits, main flag). */
async function lockUser(db: Db, userId: number): Promise<void> {
  if (isPostgres(db)) await sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`.execute(db)
}

async function remove(db: Db, id: number): Promise<void> {
  await db.deleteFrom('profiles').where('id', '=', id).execute()
}

/** Makes the user's oldest remaining page the main one when none is (after a deletion). */
async function ensureMain(db: Db, userId: number): Promise<void> {
  const rows = await db.selectFrom('profiles').select(['id', 'is_main']).where('user_id', '=', userId).orderBy('id').execute()
  if (rows.length && !rows.some((r) => r.is_main === 1)) await db.updateTable('profiles').set({ is_main: 1 }).where('id', '=', rows[0].id).execute()
}

/**
 * Published pages served at `{PUBLIC_URL}/<login>`: those with an active domain are served
 * there instead, so they are left out.
 */
const servedOnMainHost = (db: Db) =>
  db
    .selectFrom('profiles')
    .leftJoin('custom_domains', (join) => join.onRef('custom_domains.profile_id', '=', 'profiles.id').on('custom_domains.state', '=', 'active'))
    .where('profiles.status', '=', 1)
    .where('custom_domains.id', 'is', null)

/**
 * The numbers of the id ranges, `perRange` ids wide, holding at least one page served on the
 * main host: one read that returns a number per range, however many pages there are.
 */
async function mainHostRanges(db: Db, perRange: number): Promise<number[]> {
  const range = sql<number>`profiles.id / ${sql.lit(perRange)}`
  const rows = await servedOnMainHost(db).select(range.as('range')).groupBy(range).orderBy(range).execute()
  return rows.map((r) => Number(r.range))
}

/** Logins served on the main host with ids in [fromId, toId) after `afterId`, by id, at most `limit`. */
async function mainHostLogins(db: Db, p: { fromId: number; toId: number; afterId: number; limit: number }): Promise<Array<{ id: number; login: string }>> {
  return servedOnMainHost(db)
    .select(['profiles.id', 'profiles.login'])
    .where('profiles.id', '>=', p.fromId)
    .where('profiles.id', '<', p.toId)
    .where('profiles.id', '>', p.afterId)
    .orderBy('profiles.id')
    .limit(p.limit)
    .execute()
}

export const profilesRepository = Object.freeze({
  mainHostRanges,
  mainHostLogins,
  ensureMain,
  insert,
  update,
  findById,
  findByLogin,
  listByUser,
  countByUser,
  lockForWrite,
  lockUser,
  remove,
})
