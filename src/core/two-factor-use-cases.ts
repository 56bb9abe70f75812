import { requireOwnerInPerson, type Principal } from '../auth/principal.ts'
import { seal, unseal } from '../auth/sealing.ts'
import { isRecoveryCodeShaped, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpStep, totpUri } from '../auth/totp.ts'
import type { AppContext } from '../context.ts'
import { invalidField } from '../kernel/errors.ts'
import { inTransaction } from '../store/db.ts'
import { twoFactorRepository } from '../store/two-factor.ts'
import { requireOwnerGrant, spendOwnerGrant } from './owner-grant.ts'

const PURPOSE = 'totp secret'
const WRONG_CODE = 'This code is not right, or was used already. Type the code your app shows now, or one of your recovery codes.'

/** What authenticator apps show above the codes: this service's host. */
const issuerOf = (ctx: AppContext) => `Slotline (${new URL(ctx.config.publicUrl).host})`

const secretOf = (ctx: AppContext, sealed: string): string | undefined => unseal<string>(ctx.secret, PURPOSE, sealed)

export interface TwoFactorStatus {
  enabled: boolean
  recoveryCodesLeft: number
}

async function status(ctx: AppContext, principal: Principal): Promise<TwoFactorStatus> {
  requireOwnerInPerson(principal)
  const found = await twoFactorRepository.find(ctx.db, principal.user.id)
  if (!found?.confirmed) return { enabled: false, recoveryCodesLeft: 0 }
  return { enabled: true, recoveryCodesLeft: await twoFactorRepository.recoveryCodesLeft(ctx.db, principal.user.id) }
}

/** Whether signing in to this account takes a second step after the password. */
async function required(ctx: AppContext, userId: number): Promise<boolean> {
  return (await twoFactorRepository.find(ctx.db, userId))?.confirmed === true
}

/**
 * Starts (or restarts) enrolment, for a session that holds the owner's confirmation
 * (owner-grant.ts): a new seed, sealed at rest, not yet in force. Answers the seed and its
 * otpauth:// address for the QR code; they are shown to the owner and never logged.
 */
async function beginEnrolment(ctx: AppContext, principal: Principal, input: { sessionId: string }): Promise<{ secret: string; uri: string }> {
  requireOwnerInPerson(principal)
  await requireOwnerGrant(ctx, principal.user.id, input.sessionId, 'code')
  const found = await twoFactorRepository.find(ctx.db, principal.user.id)
  if (found?.confirmed) throw invalidField('code', 'Two-factor codes are already on. Turn them off first to use another app.')
  const secret = newTotpSecret()
  await twoFactorRepository.begin(ctx.db, principal.user.id, seal(ctx.secret, PURPOSE, secret))
  return { secret, uri: totpUri(secret, principal.user.email, issuerOf(ctx)) }
}

/** The enrolment waiting for its first code, to show its QR code again (undefined when none). */
async function pendingEnrolment(ctx: AppContext, principal: Principal): Promise<{ secret: string; uri: string } | undefined> {
  requireOwnerInPerson(principal)
  const found = await twoFactorRepository.find(ctx.db, principal.user.id)
  const secret = found && !found.confirmed ? secretOf(ctx, found.secretSealed) : undefined
  return secret ? { secret, uri: totpUri(secret, principal.user.email, issuerOf(ctx)) } : undefined
}

/**
 * A typed code proves the app holds the seed, and the session spends the owner's confirmation:
 * codes are on from now, ten recovery codes are made (returned once, stored as digests), and
 * every other session of the account ends.
 */
async function confirmEnrolment(
  ctx: AppContext,
  principal: Principal,
  input: { code: string; sessionId: string; keepSessionId?: string },
): Promise<{ recoveryCodes: string[]; sessionsEnded: number }> {
  requireOwnerInPerson(principal)
  const userId = principal.user.id
  const found = await twoFactorRepository.find(ctx.db, userId)
  const secret = found && !found.confirmed ? secretOf(ctx, found.secretSealed) : undefined
  if (!secret) throw invalidField('code', 'Start again: choose “Set up two-factor codes”.')
  const step = totpStep(secret, input.code)
  if (step === undefined) throw invalidField('code', 'This code is not right. Type the six digits your app shows now.')
  await spendOwnerGrant(ctx, userId, input.sessionId, 'code')
  const recoveryCodes = newRecoveryCodes()
  const confirmed = await inTransaction(ctx.db, async (trx) => {
    if (!(await twoFactorRepository.useStep(trx, userId, step, true))) return false
    await twoFactorRepository.replaceRecoveryCodes(trx, userId, recoveryCodes.map(recoveryCodeHash))
    return true
  })
  if (!confirmed) throw invalidField('code', 'This code is not right. Type the six digits your app shows now.')
  return { recoveryCodes, sessionsEnded: await ctx.sessions.endAllFor(userId, input.keepSessionId) }
}

/**
 * Whether `code` is a current authenticator code (each time step once) or an unused recovery
 * code of the account; a matching one is used up. Callers count attempts (the sign-in limits).
 */
async function useCode(ctx: AppContext, userId: number, code: string): Promise<'totp' | 'recovery' | undefined> {
  const found = await twoFactorRepository.find(ctx.db, userId)
  if (!found?.confirmed) return undefined
  if (isRecoveryCodeShaped(code)) return (await twoFactorRepository.useRecoveryCode(ctx.db, userId, recoveryCodeHash(code))) ? 'recovery' : undefined
  const secret = secretOf(ctx, found.secretSealed)
  const step = secret === undefined ? undefined : totpStep(secret, code)
  if (step === undefined) return undefined
  return (await twoFactorRepository.useStep(ctx.db, userId, step)) ? 'totp' : undefined
}

/** The second step of a sign-in (or of a consent): the code, checked and used up. */
async function checkSignIn(ctx: AppContext, userId: number, code: string): Promise<'totp' | 'recovery'> {
  const used = await useCode(ctx, userId, code)
  if (!used) throw invalidField('code', WRONG_CODE)
  return used
}

/** Turning codes off takes a code too (a stolen session alone cannot); other sessions end. */
async function disable(ctx: AppContext, principal: Principal, input: { code: string; keepSessionId?: string }): Promise<{ sessionsEnded: number }> {
  requireOwnerInPerson(principal)
  const userId = principal.user.id
  if (!(await useCode(ctx, userId, input.code))) throw invalidField('code', WRONG_CODE)
  await twoFactorRepository.remove(ctx.db, userId)
  return { sessionsEnded: await ctx.sessions.endAllFor(userId, input.keepSessionId) }
}

/** Ten new recovery codes (the old ones stop working), given a current code. */
async function renewRecoveryCodes(ctx: AppContext, principal: Principal, input: { code: string }): Promise<{ recoveryCodes: string[] }> {
  requireOwnerInPerson(principal)
  const userId = principal.user.id
  if (!(await useCode(ctx, userId, input.code))) throw invalidField('code', WRONG_CODE)
  const recoveryCodes = newRecoveryCodes()
  await twoFactorRepository.replaceRecoveryCodes(ctx.db, userId, recoveryCodes.map(recoveryCodeHash))
  return { recoveryCodes }
}

/**
 * The operator (`cli users reset-two-factor`) turns codes off for someone who lost both the
 * phone and the recovery codes; every session of the account ends. Answers whether codes were on.
 */
async function resetByOperator(ctx: AppContext, input: { userId: number }): Promise<{ wasOn: boolean; sessionsEnded: number }> {
  const wasOn = await required(ctx, input.userId)
  await twoFactorRepository.remove(ctx.db, input.userId)
  return { wasOn, sessionsEnded: await ctx.sessions.endAllFor(input.userId) }
}

export const twoFactorUseCases = Object.freeze({
  status,
  required,
  beginEnrolment,
  pendingEnrolment,
  confirmEnrolment,
  checkSignIn,
  disable,
  renewRecoveryCodes,
  resetByOperator,
})
