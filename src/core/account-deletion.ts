import type { Principal } from '../auth/principal.ts'
import { announceProfileChange, type AppContext } from '../context.ts'
import { accountErasure } from '../store/account-erasure.ts'
import { profilesRepository } from '../store/profiles.ts'
import { AppError, invalid } from '../kernel/errors.ts'
import { type OwnerProof, ownerProofProblems } from './owner-proof.ts'
import { type WriteOptions, writeAccount } from './unit-of-work.ts'

export interface DeleteAccountInput {
  /**
   * The owner's confirmation (the current password, or what an account without one signs in
   * with): a session alone (a stolen cookie) cannot erase the account. The face counts the
   * attempt (a password guess) before it calls.
   */
  proof: OwnerProof | undefined
}

export interface DeletedAccount {
  userId: number
  logins: string[]
  removedFiles: string[]
}

/**
 * Deletes the principal's account and everything of it — pages, blocks, statistics, form
 * submissions, files, tokens, OAuth grants, sessions — in one transaction. Only the owner in
 * person may (the dashboard, tokenId 0): no token, however broad, can erase its own account.
 * After the commit every page is announced gone (caches drop the addresses at once), its
 * analytics answers forgotten and the stored objects removed; sessions kept outside the database
 * (Redis) are the face's to end, as it holds the session store.
 */
export async function deleteAccount(ctx: AppContext, principal: Principal, input: DeleteAccountInput, options: WriteOptions = {}): Promise<DeletedAccount> {
  if (principal.tokenId !== 0) throw new AppError('forbidden', { message: 'An account can be deleted only by its owner, signed in to the dashboard.' })
  const user = principal.user
  const unconfirmed = await ownerProofProblems(ctx, user, input.proof)
  if (unconfirmed) throw invalid(unconfirmed)
  const erased = await writeAccount(ctx, principal, options, async (trx) => {
    await profilesRepository.lockUser(trx, user.id)
    return accountErasure.erase(trx, user.id)
  })
  const deleted = { userId: user.id, logins: erased.profiles.map((p) => p.login), removedFiles: erased.filePaths }
  if (options.dryRun) return deleted
  // Its tokens' next request, on any instance, finds them gone.
  await ctx.verifiedTokens.changed(user.id)
  ctx.answerCache.forget(erased.profiles.map((p) => p.id))
  for (const p of erased.profiles) {
    await announceProfileChange(ctx.events, { profileId: p.id, logins: [p.login] }).catch((err) =>
      ctx.log.error({ err, profileId: p.id }, 'could not announce a deleted page'),
    )
  }
  const { storage } = ctx.media
  for (const path of erased.filePaths) {
    // The rows are gone: an object left behind is unreachable, hence the log line.
    await storage.delete(path).catch((err) => ctx.log.error({ err, path }, 'could not delete the file of a deleted account'))
  }
  return deleted
}
