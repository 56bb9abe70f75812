import type { Db } from '../store/db.ts'
import { type StoredProfile, profilesRepository } from '../store/profiles.ts'
import { notFound } from '../kernel/errors.ts'

/**
 * spec, Conventions: {profileKey} is a numeric id or a login; a digits-only segment is always
 * an id. Another account's page does not exist for the caller: 404, never 403.
 */
export async function resolveProfileKey(db: Db, userId: number, given: string | number): Promise<StoredProfile> {
  const key = String(given)
  const profile = /^\d+$/.test(key)
    ? Number(key) <= Number.MAX_SAFE_INTEGER
      ? await profilesRepository.findById(db, Number(key))
      : undefined
    : await profilesRepository.findByLogin(db, key)
  if (!profile || profile.userId !== userId) {
    throw notFound('profile', `No profile "${key}" in your account. {{profiles.list}} lists yours.`)
  }
  return profile
}
