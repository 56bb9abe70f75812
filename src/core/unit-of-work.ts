import { type Principal, requireAbility } from '../auth/principal.ts'
import { type AppContext, announceProfileChange } from '../context.ts'
import { resolveProfileKey } from '../profiles/profile-key.ts'
import type { Db } from '../store/db.ts'
import { type StoredProfile, profilesRepository } from '../store/profiles.ts'
import { isPageWatched, queuePageEvents, snapshotPage } from '../webhooks/page-changes.ts'
import { ownedProfile } from '../infra/owned-profiles.ts'

/** How a face asks for a write. */
export interface WriteOptions {
  /**
   * Run every check and the write itself inside the transaction, then roll it back: the caller
   * learns what would happen (the result, or the error) and nothing is stored or announced.
   */
  dryRun?: boolean
  /**
   * Dry run only: called inside the transaction after the work, before the rollback, with the page
   * as the write left it, so a face can look at the result (the editor's live preview renders it)
   * while nothing is stored.
   */
  look?: (db: Db, profile: StoredProfile) => Promise<void>
}

/** A profile as a face names it: a numeric id or a login, as the caller gave it. */
export type ProfileKey = string | number

class DryRunRollback<T> extends Error {
  constructor(readonly result: T) {
    super('dry run: rolled back')
  }
}

/** Runs `work` in one transaction; a dry run rolls it back and still answers its result. */
async function transact<T>(ctx: AppContext, options: WriteOptions, work: (trx: Db) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const result = await work(trx)
      if (options.dryRun) throw new DryRunRollback(result)
      return result
    })
  } catch (err) {
    if (err instanceof DryRunRollback) return err.result as T
    throw err
  }
}

/**
 * Caches keyed by address (the public page, QR codes) drop both the login the write found and
 * the one the page has now, so a rename invalidates both at once. Announced after the commit,
 * once per write; a listener's failure is logged, never the caller's.
 */
async function announce(ctx: AppContext, before: StoredProfile): Promise<void> {
  try {
    const now = await profilesRepository.findById(ctx.db, before.id)
    const logins = now && now.login !== before.login ? [before.login, now.login] : [before.login]
    await announceProfileChange(ctx.events, { profileId: before.id, logins })
  } catch (err) {
    ctx.log.error({ err, profileId: before.id }, 'could not announce a page change')
  }
}

/**
 * A new account revision after a committed page write, so pages read at the old one are read
 * again (owned-profiles.ts). The write stands whatever happens here: a failure is logged, not
 * answered, and while Redis cannot be read no instance trusts a kept page anyway.
 */
async function accountChanged(ctx: AppContext, userId: number): Promise<void> {
  try {
    await ctx.verifiedTokens.changed(userId)
  } catch (err) {
    ctx.log.error({ err, userId }, 'could not move the account revision after a page write')
  }
}

/**
 * A read of one of the principal's pages: the ability is checked, then `profileKey` resolved
 * (another account's page is not_found, exactly like a missing one), from the pages read at the
 * principal's account revision when it has one (owned-profiles.ts).
 */
export async function readProfile<T>(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  work: (db: Db, profile: StoredProfile) => Promise<T>,
): Promise<T> {
  requireAbility(principal, 'profile:read')
  return work(ctx.db, await ownedProfile(ctx.ownedProfiles, ctx.db, principal, profileKey))
}

/**
 * A write to one of the principal's pages: ability, ownership (inside the transaction, so the
 * page cannot change hands under it), the work, the commit, a new account revision (so every
 * instance reads the account's pages and tokens again), then 'profile-changed' for the page.
 */
export async function writeProfile<T>(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  options: WriteOptions,
  work: (trx: Db, profile: StoredProfile) => Promise<T>,
): Promise<T> {
  requireAbility(principal, 'profile:write')
  let profile: StoredProfile | undefined
  let queued = 0
  const result = await transact(ctx, options, async (trx) => {
    profile = await resolveProfileKey(trx, principal.user.id, profileKey)
    // A page whose webhooks take its changes is compared before and after, in the transaction.
    const before = !options.dryRun && (await isPageWatched(trx, principal.user.id, profile.id)) ? await snapshotPage(trx, profile.id) : undefined
    const done = await work(trx, profile)
    if (before) queued = await queuePageEvents(trx, principal.user.id, before, await snapshotPage(trx, profile.id))
    if (options.dryRun && options.look) await options.look(trx, (await profilesRepository.findById(trx, profile.id)) ?? profile)
    return done
  })
  if (!options.dryRun && profile) {
    await accountChanged(ctx, principal.user.id)
    await announce(ctx, profile)
    if (queued) ctx.webhooks.nudge()
  }
  return result
}

/** A read of the principal's account as a whole (no page named). */
export async function readAccount<T>(ctx: AppContext, principal: Principal, work: (db: Db) => Promise<T>): Promise<T> {
  requireAbility(principal, 'profile:read')
  return work(ctx.db)
}

/** A write to the principal's account that names no existing page (a new profile, an upload URL). */
export async function writeAccount<T>(ctx: AppContext, principal: Principal, options: WriteOptions, work: (trx: Db) => Promise<T>): Promise<T> {
  requireAbility(principal, 'profile:write')
  const result = await transact(ctx, options, work)
  if (!options.dryRun) await accountChanged(ctx, principal.user.id)
  return result
}
