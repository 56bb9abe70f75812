import { type Db, nowIso } from './db.ts'

async function insert(db: Db, r: { userId: number; tokenHash: string; expiresAt: string }): Promise<void> {
  await db.insertInto('password_resets').values({ user_id: r.userId, token_hash: r.tokenHash, expires_at: r.expiresAt, created_at: nowIso() }).execute()
}

/**
 * Uses the link with this hash once: marks it used and answers its user, or undefined when it is
 * unknown, used or expired. One conditional UPDATE, so two uses at once cannot both succeed.
 */
async function use(db: Db, tokenHash: string, now = nowIso()): Promise<number | undefined> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst()
  return row?.user_id
}

/** Whether the link is still good (for showing its form), without using it. */
async function isValid(db: Db, tokenHash: string, now = nowIso()): Promise<boolean> {
  const row = await db
    .selectFrom('password_resets')
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row !== undefined
}

/** Every other link of the user stops working once one is used. */
async function endAllFor(db: Db, userId: number): Promise<void> {
  await db.updateTable('password_resets').set({ used_at: nowIso() }).where('user_id', '=', userId).where('used_at', 'is', null).execute()
}

export const passwordResetsRepository = Object.freeze({ insert, use, isValid, endAllFor })
