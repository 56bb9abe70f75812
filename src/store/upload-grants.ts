import type { Selectable } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import type { Db } from './db.ts'
import type { UploadGrantsTable } from './schema.ts'

export type UploadGrant = CamelCased<Selectable<UploadGrantsTable>>

async function insert(db: Db, grant: { id: string; userId: number; expiresAt: string; createdAt: string }): Promise<void> {
  await db
    .insertInto('upload_grants')
    .values({ id: grant.id, user_id: grant.userId, expires_at: grant.expiresAt, used_at: null, created_at: grant.createdAt })
    .execute()
}

/**
 * Marks the grant used if it is unused and not expired at `nowIso`, in one statement, so two
 * uploads racing on one URL (on any instance) cannot both win. Returns the owner, or undefined.
 */
async function consume(db: Db, id: string, nowIso: string): Promise<number | undefined> {
  const row = await db
    .updateTable('upload_grants')
    .set({ used_at: nowIso })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .returning('user_id')
    .executeTakeFirst()
  return row?.user_id
}

/** Gives a consumed grant back (the upload it carried was refused): the URL stays usable until it expires. */
async function release(db: Db, id: string): Promise<void> {
  await db.updateTable('upload_grants').set({ used_at: null }).where('id', '=', id).execute()
}

async function find(db: Db, id: string): Promise<UploadGrant | undefined> {
  const row = await db.selectFrom('upload_grants').selectAll().where('id', '=', id).executeTakeFirst()
  return row && camelRow(row)
}

/** Drops grants that expired before `beforeIso`; they can never be used again. */
async function deleteExpired(db: Db, beforeIso: string): Promise<number> {
  const res = await db.deleteFrom('upload_grants').where('expires_at', '<', beforeIso).executeTakeFirst()
  return Number(res.numDeletedRows)
}

export const uploadGrantsRepository = Object.freeze({ insert, consume, release, find, deleteExpired })
