import type { Redis } from 'ioredis'
import type { Kysely } from 'kysely'
import { nowIso } from '../store/db.ts'
import type { Database } from '../store/schema.ts'

export interface StoredResponse {
  status: number
  contentType: string | null
  payload: string
}

export type Claim = { kind: 'claimed' } | { kind: 'pending'; fingerprint: string } | { kind: 'done'; fingerprint: string; response: StoredResponse }

/** Stripe-style idempotency records: one per (user, key), kept for the idempotency window. */
export interface IdempotencyStore {
  claim(userId: number, key: string, fingerprint: string): Promise<Claim>
  complete(userId: number, key: string, response: StoredResponse): Promise<void>
  release(userId: number, key: string): Promise<void>
  purgeExpired(): Promise<number>
}

// A claim whose request never finished (the process died) stops blocking the key after this.
const ABANDONED_MS = 60_000

export function databaseIdempotencyStore(db: Kysely<Database>, windowMs: number): IdempotencyStore {
  async function claim(userId: number, key: string, fingerprint: string): Promise<Claim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = Date.now()
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({
          user_id: userId,
          key,
          fingerprint,
          state: 'pending',
          status: null,
          body: null,
          created_at: new Date(now).toISOString(),
          expires_at: new Date(now + windowMs).toISOString(),
        })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
        .executeTakeFirst()
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { kind: 'claimed' }
      const row = await db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirst()
      if (!row) continue
      const stale = row.expires_at <= new Date(now).toISOString() || (row.state === 'pending' && Date.parse(row.created_at) < now - ABANDONED_MS)
      if (stale) {
        await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).where('created_at', '=', row.created_at).execute()
        continue
      }
      if (row.state === 'pending') return { kind: 'pending', fingerprint: row.fingerprint }
      return { kind: 'done', fingerprint: row.fingerprint, response: JSON.parse(row.body ?? '{}') }
    }
    return { kind: 'pending', fingerprint: '' }
  }

  return {
    claim,
    async complete(userId, key, response) {
      await db
        .updateTable('idempotency_keys')
        .set({ state: 'done', status: response.status, body: JSON.stringify(response) })
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .execute()
    },
    async release(userId, key) {
      await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).execute()
    },
    async purgeExpired() {
      const res = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', nowIso()).executeTakeFirst()
      return Number(res.numDeletedRows)
    },
  }
}

export function redisIdempotencyStore(redis: Redis, windowMs: number, prefix = 'slotline:idem:'): IdempotencyStore {
  const k = (userId: number, key: string) => `${prefix}${userId}:${key}`
  return {
    async claim(userId, key, fingerprint) {
      const record = JSON.stringify({ fingerprint, state: 'pending', at: Date.now() })
      for (let attempt = 0; attempt < 3; attempt++) {
        const ok = await redis.set(k(userId, key), record, 'PX', windowMs, 'NX')
        if (ok === 'OK') return { kind: 'claimed' }
        const raw = await redis.get(k(userId, key))
        if (!raw) continue
        const stored = JSON.parse(raw) as { fingerprint: string; state: string; at: number; response?: StoredResponse }
        if (stored.state === 'pending') {
          if (stored.at < Date.now() - ABANDONED_MS) {
            await redis.del(k(userId, key))
            continue
          }
          return { kind: 'pending', fingerprint: stored.fingerprint }
        }
        return { kind: 'done', fingerprint: stored.fingerprint, response: stored.response! }
      }
      return { kind: 'pending', fingerprint: '' }
    },
    async complete(userId, key, response) {
      const raw = await redis.get(k(userId, key))
      const fingerprint = raw ? (JSON.parse(raw) as { fingerprint: string }).fingerprint : ''
      await redis.set(k(userId, key), JSON.stringify({ fingerprint, state: 'done', at: Date.now(), response }), 'KEEPTTL')
    },
    async release(userId, key) {
      await redis.del(k(userId, key))
    },
    // Redis expires the records itself.
    async purgeExpired() {
      return 0
    },
  }
}

// The context holds this as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    idempotency: IdempotencyStore
  }
}
