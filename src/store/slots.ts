import { type Selectable, type SelectQueryBuilder, sql } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import { countRows, type Db, nowIso } from './db.ts'
import type { Database, SlotsTable } from './schema.ts'

type Row = Selectable<SlotsTable>

/** When a slot shows, as its three columns hold it (slots/shared/visibility.ts gives the rules and the API's schema). */
export interface StoredVisibility {
  hidden: boolean
  startsAt: string | null
  endsAt: string | null
}

/** A stored slot. `data` is whatever was stored: normalised for known types, as-is for legacy ones. */
export interface StoredSlot extends CamelCased<Omit<Row, 'data' | 'hidden' | 'starts_at' | 'ends_at'>> {
  data: unknown
  visibility: StoredVisibility
}

export interface NewSlotRow {
  type: string
  data: unknown
  position: number
  visibility?: StoredVisibility
}

const toSlot = ({ hidden, starts_at, ends_at, ...r }: Row): StoredSlot =>
  camelRow(r, { data: JSON.parse(r.data) as unknown, visibility: { hidden: Boolean(hidden), startsAt: starts_at, endsAt: ends_at } })

const visibilityColumns = (v: StoredVisibility) => ({ hidden: v.hidden ? 1 : 0, starts_at: v.startsAt, ends_at: v.endsAt })

/**
 * Every write below moves the page's slots revision in the same transaction, so no path that
 * writes slots (a use case, the demo, a restore) can leave a presented copy looking fresh.
 * The profile row goes first, before any slot row: one lock order for every transaction, as
 * lockAndCount takes it, so two writers to one page never deadlock on PostgreSQL.
 */
async function bumpRevision(db: Db, profileId: number | SelectQueryBuilder<Database, 'slots', { profile_id: number }>): Promise<void> {
  await db.updateTable('profiles').set({ slots_revision: sql`slots_revision + 1` }).where('id', '=', profileId).execute()
}

async function listByProfile(db: Db, profileId: number): Promise<StoredSlot[]> {
  const rows = await db.selectFrom('slots').selectAll().where('profile_id', '=', profileId).orderBy('position').orderBy('id').execute()
  return rows.map(toSlot)
}

async function findInProfile(db: Db, profileId: number, id: number): Promise<StoredSlot | undefined> {
  const row = await db.selectFrom('slots').selectAll().where('profile_id', '=', profileId).where('id', '=', id).executeTakeFirst()
  return row && toSlot(row)
}

/** A slot by id alone: public routes (form posts) that carry no profile key. */
async function findById(db: Db, id: number): Promise<StoredSlot | undefined> {
  const row = await db.selectFrom('slots').selectAll().where('id', '=', id).executeTakeFirst()
  return row && toSlot(row)
}

async function countByProfile(db: Db, profileId: number): Promise<number> {
  return countRows(db.selectFrom('slots').where('profile_id', '=', profileId))
}

/** One INSERT for the whole list; answers the rows in page order. */
async function insertMany(db: Db, profileId: number, rows: NewSlotRow[]): Promise<StoredSlot[]> {
  if (!rows.length) return []
  await bumpRevision(db, profileId)
  const now = nowIso()
  const inserted = await db
    .insertInto('slots')
    .values(
      rows.map((r) => ({
        profile_id: profileId,
        type: r.type,
        position: r.position,
        data: JSON.stringify(r.data),
        // Every row names the same columns: SQLite has no DEFAULT inside a multi-row VALUES.
        ...visibilityColumns(r.visibility ?? { hidden: false, startsAt: null, endsAt: null }),
        created_at: now,
        updated_at: now,
      })),
    )
    .returningAll()
    .execute()
  return inserted.map(toSlot).sort((a, b) => a.position - b.position)
}

/** Opens a gap: every slot at `from` or later moves `by` places down. */
async function shiftFrom(db: Db, profileId: number, from: number, by: number): Promise<void> {
  await bumpRevision(db, profileId)
  await db
    .updateTable('slots')
    .set({ position: sql`position + ${sql.lit(by)}` })
    .where('profile_id', '=', profileId)
    .where('position', '>=', from)
    .execute()
}

/** Replaces the data, the visibility, or both (what is undefined stays). */
async function updateData(db: Db, id: number, data: unknown, visibility?: StoredVisibility): Promise<StoredSlot> {
  await bumpRevision(db, db.selectFrom('slots').select('profile_id').where('id', '=', id))
  const row = await db
    .updateTable('slots')
    .set({ ...(data === undefined ? {} : { data: JSON.stringify(data) }), ...(visibility ? visibilityColumns(visibility) : {}), updated_at: nowIso() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return toSlot(row)
}

async function deleteMany(db: Db, profileId: number, ids: number[]): Promise<number> {
  if (!ids.length) return 0
  await bumpRevision(db, profileId)
  const result = await db.deleteFrom('slots').where('profile_id', '=', profileId).where('id', 'in', ids).executeTakeFirst()
  return Number(result.numDeletedRows)
}

// Well under SQLite's and PostgreSQL's bound-parameter limits (3 parameters per move).
const MOVES_PER_STATEMENT = 2000

/** Sets many positions in one statement per chunk (a CASE on id), on either engine. */
async function setPositions(db: Db, profileId: number, moves: Array<{ id: number; position: number }>): Promise<void> {
  if (moves.length) await bumpRevision(db, profileId)
  for (let i = 0; i < moves.length; i += MOVES_PER_STATEMENT) {
    const chunk = moves.slice(i, i + MOVES_PER_STATEMENT)
    const cases = sql.join(
      chunk.map((m) => sql`WHEN ${m.id} THEN CAST(${m.position} AS INTEGER)`),
      sql` `,
    )
    await db
      .updateTable('slots')
      .set({ position: sql`CASE id ${cases} END` })
      .where('profile_id', '=', profileId)
      .where(
        'id',
        'in',
        chunk.map((m) => m.id),
      )
      .execute()
  }
}

export const slotsRepository = Object.freeze({
  listByProfile,
  findInProfile,
  findById,
  countByProfile,
  insertMany,
  shiftFrom,
  updateData,
  deleteMany,
  setPositions,
})
