import type { Db } from './db.ts'

/**
 * Every row of the account a person may take away, as stored (JSON text parsed), with no
 * secret: password and token hashes stay behind. Upload paths are the originals only; their
 * WebP variants are ours to recompute.
 */
async function rowsOf(db: Db, userId: number) {
  const user = await db.selectFrom('users').select(['id', 'email', 'name', 'timezone', 'created_at']).where('id', '=', userId).executeTakeFirstOrThrow()
  const profiles = await db.selectFrom('profiles').selectAll().where('user_id', '=', userId).orderBy('id').execute()
  const ids = profiles.map((p) => p.id)
  const slots = ids.length ? await db.selectFrom('slots').selectAll().where('profile_id', 'in', ids).orderBy('profile_id').orderBy('position').execute() : []
  const submissions = ids.length ? await db.selectFrom('form_submissions').selectAll().where('profile_id', 'in', ids).orderBy('id').execute() : []
  const forms = await db.selectFrom('forms').selectAll().where('user_id', '=', userId).orderBy('id').execute()
  const events = await db.selectFrom('events').selectAll().where('user_id', '=', userId).orderBy('id').execute()
  const tokens = await db
    .selectFrom('tokens')
    .select(['id', 'name', 'abilities', 'kind', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute()
  const uploads = await db.selectFrom('files').selectAll().where('user_id', '=', userId).where('variant_of', 'is', null).orderBy('id').execute()
  return { user, profiles, slots, submissions, forms, events, tokens, uploads }
}

export const accountExport = Object.freeze({ rowsOf })
