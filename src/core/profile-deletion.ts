import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { invalidField } from '../kernel/errors.ts'
import { analyticsRepository } from '../store/analytics.ts'
import { filesRepository } from '../store/files.ts'
import { profilesRepository } from '../store/profiles.ts'
import { type ProfileKey, type WriteOptions, writeProfile } from './unit-of-work.ts'

export interface DeleteProfileInput {
  /** The page's login, typed by the person as confirmation (letter case aside). */
  confirmLogin: string
}

export interface DeletedProfile {
  profileId: number
  login: string
  /** Upload paths that went with the page (no other page used them). */
  removedFiles: string[]
}

/**
 * spec, Overview: deleting a profile is dashboard only and irreversible (the API offers no such
 * endpoint; any face may call this). In one transaction: the files only this page used, then the
 * page, whose slots, analytics and form answers go with it (foreign keys cascade); the account's
 * next page becomes the main one if this was. After the commit the page is announced changed
 * (every instance drops its cached copy, so the address answers 404 at once), its analytics
 * answers are forgotten and the stored objects removed.
 */
export async function deleteProfile(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: DeleteProfileInput,
  options: WriteOptions = {},
): Promise<DeletedProfile> {
  const deleted = await writeProfile(ctx, principal, profileKey, options, async (trx, profile) => {
    if (input.confirmLogin.trim().toLowerCase() !== profile.login.toLowerCase()) {
      throw invalidField('confirmLogin', `Type the page's login, ${profile.login}, to confirm.`)
    }
    await profilesRepository.lockForWrite(trx, profile.id)
    const files = await filesRepository.deleteUsedOnlyBy(trx, profile.id)
    // Its analytics rows cascade; the account's sums of them are taken out first.
    await analyticsRepository.forgetPage(trx, profile.id)
    await profilesRepository.remove(trx, profile.id)
    if (profile.isMain) await profilesRepository.ensureMain(trx, profile.userId)
    return { profileId: profile.id, login: profile.login, removedFiles: files.map((f) => f.path) }
  })
  if (options.dryRun) return deleted
  ctx.answerCache.forget([deleted.profileId])
  const { storage } = ctx.media
  for (const path of deleted.removedFiles) {
    // The rows are gone, so nothing can reference the object any more; one left behind is
    // unreachable and `cli files purge` cannot see it, hence the log line.
    await storage.delete(path).catch((err) => ctx.log.error({ err, path }, 'could not delete the file of a deleted page'))
  }
  return deleted
}
