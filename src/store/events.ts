import type { Selectable } from 'kysely'
import type { EventView } from '../kernel/slot-records.ts'
import { camelRow } from './camel-row.ts'
import { type Db, nowIso } from './db.ts'
import type { EventsTable } from './schema.ts'

/** A dashboard event: what event slots show of it, and whose it is. */
export interface EventRecord extends EventView {
  userId: number
}

type Row = Selectable<EventsTable>

const toEvent = (r: Row): EventRecord => camelRow(r)

async function insert(db: Db, e: Omit<EventRecord, 'id'>): Promise<EventRecord> {
  const now = nowIso()
  const row = await db
    .insertInto('events')
    .values({
      user_id: e.userId,
      title: e.title,
      description: e.description,
      starts_at: e.startsAt,
      ends_at: e.endsAt,
      timezone: e.timezone,
      location: e.location,
      link: e.link,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toEvent(row)
}

/** The user's events among `ids` (another user's event never shows on this user's page). */
async function findManyOfUser(db: Db, userId: number, ids: number[]): Promise<EventRecord[]> {
  if (!ids.length) return []
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', 'in', [...new Set(ids)])
    .execute()
  return rows.map(toEvent)
}

/** Changes the user's event (the editor's event fields); undefined when it is not theirs. */
async function update(db: Db, userId: number, id: number, e: Omit<EventRecord, 'id' | 'userId'>): Promise<EventRecord | undefined> {
  const row = await db
    .updateTable('events')
    .set({
      title: e.title,
      description: e.description,
      starts_at: e.startsAt,
      ends_at: e.endsAt,
      timezone: e.timezone,
      location: e.location,
      link: e.link,
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst()
  return row && toEvent(row)
}

export const eventsRepository = Object.freeze({ insert, update, findManyOfUser })
