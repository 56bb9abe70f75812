import type { Principal } from '../auth/principal.ts'
import { resolveProfileKey } from '../profiles/profile-key.ts'
import type { Db } from '../store/db.ts'
import type { StoredProfile } from '../store/profiles.ts'
import { deepFreeze } from './presented-slots.ts'

/**
 * The principal's pages as last read, by the key a caller named them with, kept under the
 * account revision the request was authenticated at (auth/verified-tokens.ts). Every committed
 * write to the account's pages replaces that revision before it answers (unit-of-work.ts), so
 * a page kept here is the stored one on every instance, exactly as for tokens: a token read at
 * the old revision is itself read again. A read costs no query while nothing of the account
 * has changed; on PostgreSQL that is a round trip per API read (bench/profile-read.ts).
 */
export interface OwnedProfiles {
  entries: Map<string, { revision: string; profile: StoredProfile }>
}

const MAX_ENTRIES = 10_000

export const createOwnedProfiles = (): OwnedProfiles => ({ entries: new Map() })

/** The principal's page named by `key` (spec: an id, or a login), from `cache` while current. */
export async function ownedProfile(cache: OwnedProfiles, db: Db, principal: Principal, key: string | number): Promise<StoredProfile> {
  const revision = principal.accountRevision
  if (revision === undefined) return resolveProfileKey(db, principal.user.id, key)
  const name = `${principal.user.id} ${key}`
  const hit = cache.entries.get(name)
  if (hit?.revision === revision) return hit.profile
  const profile = await resolveProfileKey(db, principal.user.id, key)
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value as string)
  cache.entries.set(name, { revision, profile: deepFreeze(profile) })
  return profile
}

// The context holds this as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    /** The principals' pages as read at their account revision (infra/owned-profiles.ts). */
    readonly ownedProfiles: OwnedProfiles
  }
}
