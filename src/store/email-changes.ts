import { type Db, nowIso } from './db.ts'

async function insert(db: Db, r: { userId: number; newEmail: string; tokenHash: string; expiresAt: string }): Promise<void> {
  await db
    .insertInto('email_changes')
    .values({ user_id: r.userId, new_email: r.newEmail.toLowerCase(), token_hash: r.tokenHash, expires_at: r.expiresAt, created_at: nowIso() })
    .execute()
}

/**
 * Uses the link with this hash once: marks it used and answers whose change it is, or undefined
 * when it is unknown, used or expired. One conditional UPDATE, so two uses at once cannot both succeed.
 */
async function use(db: Db, tokenHash: string, now = nowIso()): Promise<{ userId: number; newEmail: string } | undefined> {
  const row = await db
    .updateTable('email_changes')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'new_email'])
    .executeTakeFirst()
  return row && { userId: row.user_id, newEmail: row.new_email }
}

/** The change a link would make, if it can still be used (for showing its page), without using it. */
async function find(db: Db, tokenHash: string, now = nowIso()): Promise<{ userId: number; newEmail: string } | undefined> {
  const row = await db
    .selectFrom('email_changes')
    .select(['user_id', 'new_email'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row && { userId: row.user_id, newEmail: row.new_email }
}

/** The newest change of the user still waiting for its link, if any (shown on the account page). */
async function pendingFor(db: Db, userId: number, now = nowIso()): Promise<string | undefined> {
  const row = await db
    .selectFrom('email_changes')
    .select('new_email')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .executeTakeFirst()
  return row?.new_email
}

/** Every waiting link of the user stops working (a newer request, a change done, a new password). */
async function endAllFor(db: Db, userId: number): Promise<void> {
  await db.updateTable('email_changes').set({ used_at: nowIso() }).where('user_id', '=', userId).where('used_at', 'is', null).execute()
}

export const emailChangesRepository = Object.freeze({ insert, use, find, pendingFor, endAllFor })
