import { type Db, nowIso } from './db.ts'

/** Cached music lookup answers, keyed by a hash of the normalised query. */
async function find(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('music_lookups').select('result').where('key', '=', key).where('expires_at', '>', nowIso()).executeTakeFirst()
  return row?.result
}

async function put(db: Db, key: string, result: string, ttlMs: number): Promise<void> {
  const now = Date.now()
  const createdAt = new Date(now).toISOString()
  const expiresAt = new Date(now + ttlMs).toISOString()
  await db
    .insertInto('music_lookups')
    .values({ key, result, created_at: createdAt, expires_at: expiresAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ result, created_at: createdAt, expires_at: expiresAt }))
    .execute()
}

async function purgeExpired(db: Db): Promise<number> {
  const res = await db.deleteFrom('music_lookups').where('expires_at', '<=', nowIso()).executeTakeFirst()
  return Number(res.numDeletedRows)
}

export const musicLookupsRepository = Object.freeze({ find, put, purgeExpired })
