import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { OAuthGrant } from '../store/oauth.ts'
import type { TokenRecord } from '../store/tokens.ts'
import type { User } from '../store/users.ts'

/** What verifying a token read from the database: the row, its owner and (OAuth) its grant. */
export interface VerifiedToken {
  token: TokenRecord
  user: User
  grant?: OAuthGrant
  /** When lastUsedAt was last written (ms), so the once-a-minute touch survives the cache. */
  touchedAt: number
}

interface Entry extends VerifiedToken {
  /** The owner's credentials revision when the rows were read. */
  revision: string
}

/**
 * Verified tokens kept in process, keyed by the token's hash, so an authenticated request needs
 * no database round trip. The guarantee is exact: a token revoked, or its account changed or
 * deleted, fails (or shows the change) on its very next request, on every instance.
 *
 * How: each account has a revision. A cached token is used only while its owner's revision is
 * the one it was read at; everything that changes what a token may do or whom it speaks for
 * (revocation, disconnecting an app, OAuth revocation and replay detection, account changes,
 * password change or reset, account deletion) calls `changed(userId)` after its commit and
 * before it answers. So does every write to the account's pages (core/unit-of-work.ts): the
 * revision a request authenticated at also says whether pages read at it are current
 * (infra/owned-profiles.ts). With Redis the revision is a key there, read on every request (one GET,
 * far cheaper than the token query) and replaced by `changed`, so every instance sees the new
 * one at its next request. Without Redis (one instance) it is a counter in this process.
 * The revision is read before the rows, so a change committed while they are read still
 * invalidates them. Expiry needs no revision: the cached expiry is checked on every use.
 * If Redis cannot be read, nothing cached is trusted: the rows are read again.
 */
export interface VerifiedTokens {
  /** The cached verification of a token hash, if its owner's revision has not moved since (that revision with it). */
  get(hash: string): Promise<(VerifiedToken & { revision: string }) | undefined>
  /** The owner's current revision, read before the rows that `put` will keep. */
  revisionOf(userId: number): Promise<string | undefined>
  put(hash: string, revision: string, verified: VerifiedToken): void
  /** After a committed change to the account's tokens or details: every instance re-reads at once. */
  changed(userId: number): Promise<void>
}

const MAX_ENTRIES = 10_000

export function createVerifiedTokens(redis: Redis | undefined): VerifiedTokens {
  const entries = new Map<string, Entry>()
  const local = new Map<number, number>()
  const key = (userId: number) => `tokens:revision:${userId}`

  async function current(userId: number): Promise<string | undefined> {
    if (!redis) return String(local.get(userId) ?? 0)
    try {
      return (await redis.get(key(userId))) ?? undefined
    } catch {
      return undefined
    }
  }

  return {
    async get(hash) {
      const entry = entries.get(hash)
      if (!entry) return undefined
      const revision = await current(entry.user.id)
      if (revision === entry.revision) return entry
      entries.delete(hash)
      return undefined
    },
    async revisionOf(userId) {
      const revision = await current(userId)
      if (revision !== undefined || !redis) return revision
      // A revision that was never set (or was evicted) gets a random one, so a cached entry
      // can never match a key that vanished and came back.
      try {
        await redis.set(key(userId), randomUUID(), 'NX')
        return (await redis.get(key(userId))) ?? undefined
      } catch {
        return undefined
      }
    },
    put(hash, revision, verified) {
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string)
      entries.set(hash, { ...verified, revision })
    },
    async changed(userId) {
      // Entries read at the old revision are dropped when next asked for: every page write
      // comes here, and walking every entry each time would cost writes what reads save.
      if (redis) await redis.set(key(userId), randomUUID())
      else local.set(userId, (local.get(userId) ?? 0) + 1)
    },
  }
}

// The context holds this as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    /** Verified bearer tokens kept in process, exact across instances (auth/verified-tokens.ts). */
    readonly verifiedTokens: VerifiedTokens
  }
}
