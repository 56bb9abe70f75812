import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { Kysely } from 'kysely'
import type { Database } from '../store/schema.ts'
import { musicLookupsRepository } from '../store/music-lookups.ts'

// A release's links change rarely, and the upstreams' own rate limits are tight.
export const CACHE_TTL_MS = 24 * 3600_000

/** Lookup answers for a day: in Redis when the service has it (shared by instances), else the database. */
export interface MusicCache {
  get(key: string): Promise<unknown | undefined>
  set(key: string, value: unknown): Promise<void>
}

/** A stable key for a normalised query (any JSON value). */
export const cacheKey = (normalised: unknown) => createHash('sha256').update(JSON.stringify(normalised)).digest('hex')

export function musicCache(db: Kysely<Database>, redis: Redis | undefined): MusicCache {
  if (redis) {
    const k = (key: string) => `music:lookup:${key}`
    return {
      async get(key) {
        const raw = await redis.get(k(key))
        return raw === null ? undefined : JSON.parse(raw)
      },
      async set(key, value) {
        await redis.set(k(key), JSON.stringify(value), 'PX', CACHE_TTL_MS)
      },
    }
  }
  return {
    async get(key) {
      const raw = await musicLookupsRepository.find(db, key)
      return raw === undefined ? undefined : JSON.parse(raw)
    },
    async set(key, value) {
      await musicLookupsRepository.put(db, key, JSON.stringify(value), CACHE_TTL_MS)
      // Expired answers are never read; dropping them here keeps the table at a day's worth.
      await musicLookupsRepository.purgeExpired(db)
    },
  }
}
