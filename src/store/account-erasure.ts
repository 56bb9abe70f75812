import type { Db } from './db.ts'

/** What went with an account: its pages (for caches keyed by address) and every stored file path. */
export interface ErasedAccount {
  profiles: Array<{ id: number; login: string }>
  filePaths: string[]
}

/**
 * Deletes every row of the account, inside the caller's transaction. Foreign keys would cascade
 * most of it from `users`; each table is named here anyway, so a table added later without a
 * cascade fails the erasure test instead of leaving rows behind. Children before parents.
 */
async function erase(db: Db, userId: number): Promise<ErasedAccount> {
  const profiles = await db.selectFrom('profiles').select(['id', 'login']).where('user_id', '=', userId).execute()
  const profileIds = profiles.map((p) => p.id)
  const files = await db.deleteFrom('files').where('user_id', '=', userId).returning('path').execute()
  if (profileIds.length) {
    await db.deleteFrom('form_submissions').where('profile_id', 'in', profileIds).execute()
    for (const table of [
      'analytics_slot_monthly',
      'analytics_monthly',
      'analytics_social_daily',
      'analytics_slot_daily',
      'analytics_daily',
      'slots',
    ] as const) {
      await db.deleteFrom(table).where('profile_id', 'in', profileIds).execute()
    }
    await db.deleteFrom('profiles').where('id', 'in', profileIds).execute()
  }
  await db.deleteFrom('forms').where('user_id', '=', userId).execute()
  await db.deleteFrom('events').where('user_id', '=', userId).execute()
  await db.deleteFrom('upload_grants').where('user_id', '=', userId).execute()
  await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).execute()
  await db.deleteFrom('tokens').where('user_id', '=', userId).execute()
  const grants = db.selectFrom('oauth_grants').select('id').where('user_id', '=', userId)
  await db.deleteFrom('oauth_codes').where('grant_id', 'in', grants).execute()
  await db.deleteFrom('oauth_grants').where('user_id', '=', userId).execute()
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute()
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute()
  await db.deleteFrom('email_changes').where('user_id', '=', userId).execute()
  await db.deleteFrom('passkey_challenges').where('user_id', '=', userId).execute()
  await db.deleteFrom('passkeys').where('user_id', '=', userId).execute()
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute()
  await db.deleteFrom('totp_authenticators').where('user_id', '=', userId).execute()
  await db.deleteFrom('sso_identities').where('user_id', '=', userId).execute()
  await db.deleteFrom('users').where('id', '=', userId).execute()
  return { profiles, filePaths: files.map((f) => f.path) }
}

export const accountErasure = Object.freeze({ erase })
