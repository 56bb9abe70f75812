import type { Selectable } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import type { Db } from './db.ts'
import type { SessionsTable } from './schema.ts'

export type StoredSession = CamelCased<Pick<Selectable<SessionsTable>, 'data' | 'expires_at'>>

async function find(db: Db, idHash: string, nowIso: string): Promise<StoredSession | undefined> {
  const row = await db.selectFrom('sessions').select(['data', 'expires_at']).where('id_hash', '=', idHash).where('expires_at', '>', nowIso).executeTakeFirst()
  return row && camelRow(row)
}

async function save(db: Db, s: { idHash: string; userId: number | null; data: string; expiresAt: string }): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ id_hash: s.idHash, user_id: s.userId, data: s.data, expires_at: s.expiresAt })
    .onConflict((oc) => oc.column('id_hash').doUpdateSet({ user_id: s.userId, data: s.data, expires_at: s.expiresAt }))
    .execute()
}

async function remove(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute()
}

/** Ends every session of a user but the one kept (the browser that changed the password). */
async function removeForUser(db: Db, userId: number, keepIdHash?: string): Promise<number> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId)
  if (keepIdHash) q = q.where('id_hash', '!=', keepIdHash)
  const res = await q.executeTakeFirst()
  return Number(res.numDeletedRows)
}

/** The user's sessions that have not expired, with their id digests. */
async function listForUser(db: Db, userId: number, nowIso: string): Promise<Array<{ idHash: string; data: string }>> {
  const rows = await db.selectFrom('sessions').select(['id_hash', 'data']).where('user_id', '=', userId).where('expires_at', '>', nowIso).execute()
  return rows.map((r) => ({ idHash: r.id_hash, data: r.data }))
}

/** Ends one session, only if it is the user's. */
async function removeOfUser(db: Db, userId: number, idHash: string): Promise<boolean> {
  const res = await db.deleteFrom('sessions').where('user_id', '=', userId).where('id_hash', '=', idHash).executeTakeFirst()
  return Number(res.numDeletedRows) === 1
}

async function purgeExpired(db: Db, nowIso: string): Promise<number> {
  const res = await db.deleteFrom('sessions').where('expires_at', '<=', nowIso).executeTakeFirst()
  return Number(res.numDeletedRows)
}

export const sessionsRepository = Object.freeze({ find, save, remove, removeForUser, listForUser, removeOfUser, purgeExpired })
