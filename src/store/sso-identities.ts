import { type Db, nowIso } from './db.ts'

export interface SsoIdentity {
  issuer: string
  subject: string
  email: string | null
  createdAt: string
  lastUsedAt: string | null
}

/** The account a provider's person is linked to, by issuer and subject; notes the use. */
async function userFor(db: Db, issuer: string, subject: string): Promise<number | undefined> {
  const row = await db.selectFrom('sso_identities').select('user_id').where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst()
  if (!row) return undefined
  await db.updateTable('sso_identities').set({ last_used_at: nowIso() }).where('issuer', '=', issuer).where('subject', '=', subject).execute()
  return row.user_id
}

/** Links a provider's person to an account; the unique (issuer, subject) index refuses a second account. */
async function link(db: Db, userId: number, identity: { issuer: string; subject: string; email: string | undefined }): Promise<void> {
  const at = nowIso()
  await db
    .insertInto('sso_identities')
    .values({ user_id: userId, issuer: identity.issuer, subject: identity.subject, email: identity.email ?? null, created_at: at, last_used_at: at })
    .execute()
}

async function listFor(db: Db, userId: number): Promise<SsoIdentity[]> {
  const rows = await db
    .selectFrom('sso_identities')
    .select(['issuer', 'subject', 'email', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute()
  return rows.map((r) => ({ issuer: r.issuer, subject: r.subject, email: r.email, createdAt: r.created_at, lastUsedAt: r.last_used_at }))
}

async function unlink(db: Db, userId: number, issuer: string): Promise<number> {
  const res = await db.deleteFrom('sso_identities').where('user_id', '=', userId).where('issuer', '=', issuer).executeTakeFirst()
  return Number(res.numDeletedRows)
}

export const ssoIdentitiesRepository = Object.freeze({ userFor, link, listFor, unlink })
