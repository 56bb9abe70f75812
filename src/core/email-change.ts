import { randomBytes } from 'node:crypto'
import { accounts, isEmail } from '../auth/accounts.ts'
import { type Principal, requireOwnerInPerson } from '../auth/principal.ts'
import { sha256 } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { emailChangesRepository } from '../store/email-changes.ts'
import { isUniqueViolation } from '../store/unique-violation.ts'
import { passwordResetsRepository } from '../store/password-resets.ts'
import { type User, usersRepository } from '../store/users.ts'
import { invalid, invalidField } from '../kernel/errors.ts'
import { type OwnerProof, ownerProofProblems } from './owner-proof.ts'

/** How long a confirmation link works. */
export const EMAIL_CHANGE_MINUTES = 60

export interface EmailChangeRequest {
  email: string
  /** The owner's confirmation: the current password, or what an account without one signs in with (owner-proof.ts). */
  proof: OwnerProof | undefined
  /** The session that asks (raw id): the one not signed out when the change takes effect at once. */
  keepSessionId?: string
  /** The face's address for a confirmation token. */
  confirmLink: (token: string) => string
}

/** Waiting for the link mailed to `pending`, or (a service without mail) done at once. */
export type EmailChangeOutcome = { pending: string } | { changed: User; sessionsEnded: number }

const TOKEN = /^[A-Za-z0-9_-]{43}$/
const linkGone = () => invalidField('token', 'This link has expired or was used already. Ask for a new one under Account.')
const taken = () => invalidField('email', 'This e-mail cannot be used.')

/**
 * A new e-mail for the account of the owner in person, confirmed by the owner (the current
 * password, or for an account without one what it signs in with): a session alone (a stolen
 * cookie) cannot move the account to another address, from which "forgot password" would then
 * take it for good. With mail, the new address must prove it is reachable and its owner's: a
 * single-use link valid EMAIL_CHANGE_MINUTES is mailed to it (only its hash is kept) and nothing
 * changes until it is followed. Without mail the service can prove no address, as for password
 * resets: the change is made at once. Whether an address is taken is told only to whoever
 * confirmed. The face counts attempts (a password guess) before it calls.
 */
export async function requestEmailChange(ctx: AppContext, principal: Principal, input: EmailChangeRequest): Promise<EmailChangeOutcome> {
  requireOwnerInPerson(principal)
  const user = principal.user
  const email = input.email.trim().toLowerCase()
  const shape = !isEmail(email) ? 'Must be an e-mail address.' : email === user.email ? 'This is already your e-mail.' : undefined
  // A code, a recovery code or a passkey's answer is used up once checked: it is checked only
  // beside an address that could be used. A password is not, so both problems are told at once.
  const unconfirmed = shape && !accounts.hasPassword(user) ? undefined : await ownerProofProblems(ctx, user, input.proof)
  const errors: Record<string, string[]> = { ...unconfirmed }
  if (shape) errors.email = [shape]
  else if (!unconfirmed && (await usersRepository.findByEmail(ctx.db, email))) errors.email = ['This e-mail cannot be used.']
  if (Object.keys(errors).length) throw invalid(errors)

  const send = ctx.mailer
  if (!send) {
    const changed = await switchEmail(ctx, user.id, email)
    return { changed, sessionsEnded: await ctx.sessions.endAllFor(user.id, input.keepSessionId) }
  }
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(Date.now() + EMAIL_CHANGE_MINUTES * 60_000).toISOString()
  await ctx.db.transaction().execute(async (trx) => {
    // Only the newest request's link works: an older one may name an address since mistyped.
    await emailChangesRepository.endAllFor(trx, user.id)
    await emailChangesRepository.insert(trx, { userId: user.id, newEmail: email, tokenHash: sha256(token), expiresAt })
  })
  const text = [
    `Hello ${user.name},`,
    '',
    `You asked to use this address, ${email}, for your Slotline account. Open this link within`,
    `${EMAIL_CHANGE_MINUTES} minutes to confirm; it works once:`,
    '',
    input.confirmLink(token),
    '',
    `Until then your account keeps its current e-mail. If it was not you, ignore this mail.`,
  ].join('\n')
  send({ to: email, subject: 'Confirm your new Slotline e-mail', text }).catch((err) => ctx.log.error({ err }, 'could not send an e-mail confirmation'))
  return { pending: email }
}

/** The address a confirmation link would set, while it can still be used (to show its page). */
export async function emailChangeOf(ctx: AppContext, token: string): Promise<string | undefined> {
  if (!TOKEN.test(token)) return undefined
  return (await emailChangesRepository.find(ctx.db, sha256(token)))?.newEmail
}

/** The address the owner asked for and has not confirmed yet, if any. */
export async function pendingEmailChange(ctx: AppContext, principal: Principal): Promise<string | undefined> {
  return emailChangesRepository.pendingFor(ctx.db, principal.user.id)
}

/**
 * Follows a confirmation link: the account takes the new e-mail, every other waiting link (and
 * every password reset link, mailed to the old address) stops working, the old address is told,
 * and every session of the account is signed out but `keep`, when that session is the account's
 * own (the browser that followed the link, signed in).
 */
export async function confirmEmailChange(
  ctx: AppContext,
  input: { token: string; keep?: { sessionId: string; userId: unknown } },
): Promise<{ user: User; previousEmail: string; sessionsEnded: number }> {
  const change = TOKEN.test(input.token) ? await emailChangesRepository.use(ctx.db, sha256(input.token)) : undefined
  if (!change) throw linkGone()
  const before = await usersRepository.findById(ctx.db, change.userId)
  if (!before) throw linkGone()
  const user = await switchEmail(ctx, change.userId, change.newEmail)
  const keep = input.keep?.userId === user.id ? input.keep.sessionId : undefined
  const sessionsEnded = await ctx.sessions.endAllFor(user.id, keep)
  const text = [
    `Hello ${user.name},`,
    '',
    `The e-mail of your Slotline account was changed from ${before.email} to ${user.email}.`,
    'Mail about the account, password reset links included, now goes to the new address, and every',
    'other browser signed in to the account was signed out.',
    '',
    'If it was not you, someone knows your password: ask the operator of this service to give the',
    'account back to you, and change your password.',
  ].join('\n')
  ctx
    .mailer?.({ to: before.email, subject: 'The e-mail of your Slotline account was changed', text })
    .catch((err) => ctx.log.error({ err }, 'could not tell the old address of an e-mail change'))
  return { user, previousEmail: before.email, sessionsEnded }
}

/** Sets the e-mail and ends what was addressed to the old one; a taken address is the caller's field error. */
async function switchEmail(ctx: AppContext, userId: number, email: string): Promise<User> {
  try {
    const user = await ctx.db.transaction().execute(async (trx) => {
      const holder = await usersRepository.findByEmail(trx, email)
      if (holder && holder.id !== userId) throw taken()
      const user = await usersRepository.update(trx, userId, { email })
      await emailChangesRepository.endAllFor(trx, userId)
      await passwordResetsRepository.endAllFor(trx, userId)
      return user
    })
    // Tokens carry their owner's details: the next request on any instance reads the new ones.
    await ctx.verifiedTokens.changed(userId)
    return user
  } catch (err) {
    throw isUniqueViolation(err) ? taken() : err
  }
}
