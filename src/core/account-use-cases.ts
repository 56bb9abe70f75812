import { type AccountChanges, accounts, type NewUser } from '../auth/accounts.ts'
import type { Identity } from '../auth/identity.ts'
import { can, type Principal, requireOwnerInPerson } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { limits } from '../kernel/limits.ts'
import { emailChangesRepository } from '../store/email-changes.ts'
import type { User } from '../store/users.ts'
import { usersRepository } from '../store/users.ts'
import { deleteAccount } from './account-deletion.ts'
import { exportAccount } from './account-export.ts'
import { confirmEmailChange, emailChangeOf, pendingEmailChange, requestEmailChange } from './email-change.ts'
import { invalid, invalidField } from '../kernel/errors.ts'
import { readAccount } from './unit-of-work.ts'
import { holdsOwnerGrant, keepOwnerGrant } from './owner-grant.ts'
import { type OwnerConfirmation, type OwnerProof, ownerConfirmationOf, ownerProofProblems } from './owner-proof.ts'

export type { User }
export type { OwnerConfirmation }
export type { OwnerProof } from './owner-proof.ts'

/** spec, GET /me: intended as a client's first call. */
async function me(ctx: AppContext, principal: Principal): Promise<Identity> {
  return readAccount(ctx, principal, async (db) => {
    const { profiles, tokens } = await usersRepository.usage(db, principal.user.id)
    const rl = ctx.config.rateLimit
    return {
      userId: principal.user.id,
      name: principal.user.name,
      abilities: principal.abilities,
      canWrite: can(principal, 'profile:write'),
      limits: {
        profiles: { used: profiles, max: limits.profilesPerUser },
        slotsPerProfile: limits.slotsPerProfile,
        slotsPerBatch: limits.slotsPerBatch,
        tokens: { used: tokens, max: limits.tokensPerUser },
        rateLimit: {
          requestsPerSecond: rl.perSecond,
          requestsPerMinute: rl.perMinute,
          musicLookupPerMinute: rl.musicPerMinute,
          analyticsPerMinute: rl.analyticsPerMinute,
        },
        upload: { maxMegabytes: limits.uploadMegabytes, maxMegabytesFromUrl: limits.uploadFromUrlMegabytes },
      },
      analytics: { retentionDays: limits.analyticsRetentionDays, timezone: principal.user.timezone },
    }
  })
}

/**
 * A new account: the dashboard's registration (nobody signed in yet), the command line and the
 * first start. Who may register (open or closed registration, rate limits) is the face's to
 * decide before it calls.
 */
async function register(ctx: AppContext, input: NewUser): Promise<User> {
  return accounts.createUser(ctx.db, input)
}

/** Name and time zone, every problem reported at once; the e-mail has its own operation. */
async function update(ctx: AppContext, principal: Principal, input: AccountChanges): Promise<User> {
  requireOwnerInPerson(principal)
  // A session alone must not move the account to another address (requestEmailChange).
  if (input.email.trim().toLowerCase() !== principal.user.email) {
    throw invalidField('email', 'The e-mail is changed on its own, with your current password and a confirmation link.')
  }
  const user = await accounts.updateAccount(ctx.db, principal.user, input)
  // Tokens carry their owner's details: the next request on any instance reads the new ones.
  await ctx.verifiedTokens.changed(user.id)
  return user
}

/**
 * A new password, checked against `currentPassword` when given (the dashboard; the command line
 * resets without it). Every signed-in session of the account ends but `keepSessionId` (the
 * browser that made the change): the old password may be known to someone else.
 */
async function changePassword(
  ctx: AppContext,
  principal: Principal,
  input: { password: string; currentPassword?: string; keepSessionId?: string },
): Promise<{ user: User; sessionsEnded: number }> {
  requireOwnerInPerson(principal)
  const user = await accounts.setPassword(ctx.db, principal.user, input.password, input.currentPassword)
  // A change of e-mail still waiting was perhaps asked for with the old password: it is dropped.
  await emailChangesRepository.endAllFor(ctx.db, user.id)
  await ctx.verifiedTokens.changed(user.id)
  return { user, sessionsEnded: await ctx.sessions.endAllFor(user.id, input.keepSessionId) }
}

/**
 * How the owner confirms a change a stolen session must not make (a new e-mail, deleting the
 * account): the password, else a second factor, else a new sign-in at the single sign-on provider.
 */
async function confirmation(ctx: AppContext, principal: Principal): Promise<OwnerConfirmation> {
  requireOwnerInPerson(principal)
  return ownerConfirmationOf(ctx, principal.user)
}

/**
 * The owner confirms, with `proof`, before adding a new way to sign in (a passkey, two-factor
 * codes): kept for this session a short while, spent by the addition. The face counts the
 * attempt (a password guess) before it calls.
 */
async function confirmToAddSignIn(ctx: AppContext, principal: Principal, input: { sessionId: string; proof: OwnerProof | undefined }): Promise<void> {
  requireOwnerInPerson(principal)
  const unconfirmed = await ownerProofProblems(ctx, principal.user, input.proof)
  if (unconfirmed) throw invalid(unconfirmed)
  await keepOwnerGrant(ctx, principal.user.id, input.sessionId)
}

/** Whether this session holds the owner's confirmation to add a way to sign in. */
async function confirmedToAddSignIn(ctx: AppContext, principal: Principal, input: { sessionId: string }): Promise<boolean> {
  requireOwnerInPerson(principal)
  return holdsOwnerGrant(ctx, principal.user.id, input.sessionId)
}

export const accountUseCases = Object.freeze({
  confirmToAddSignIn,
  confirmedToAddSignIn,
  me,
  register,
  update,
  changePassword,
  requestEmailChange,
  pendingEmailChange,
  emailChangeOf,
  confirmEmailChange,
  confirmation,
  delete: deleteAccount,
  export: exportAccount,
})
