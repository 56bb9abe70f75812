import { randomBytes } from 'node:crypto'
import { accounts } from '../auth/accounts.ts'
import { type Mail, mailerOf } from '../auth/mailer.ts'
import { sha256 } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { passwordResetsRepository } from '../store/password-resets.ts'
import { usersRepository } from '../store/users.ts'
import { invalidField } from './errors.ts'

/** How long a reset link works. */
export const RESET_MINUTES = 30

const senders = new WeakMap<AppContext, ((mail: Mail) => Promise<void>) | undefined>()
/** The service's outgoing mail, undefined without SMTP_URL; one transport per context. */
export const senderOf = (ctx: AppContext) => {
  if (!senders.has(ctx)) senders.set(ctx, mailerOf(ctx.config))
  return senders.get(ctx)
}

/** Whether this service can mail reset links (SMTP_URL is set). */
export const canMailResets = (ctx: AppContext) => ctx.config.mail !== undefined

/**
 * "Forgot password?": when `email` has an account, a single-use link valid RESET_MINUTES is
 * mailed to it (only its hash is stored). The caller answers the same either way, and the mail
 * is sent after this returns, so neither the words nor the time tell whether the address has an
 * account. `linkFor` turns the raw token into the face's address.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, linkFor: (token: string) => string): Promise<void> {
  const send = senderOf(ctx)
  if (!send) return
  const user = email.length <= 254 ? await usersRepository.findByEmail(ctx.db, email.trim().toLowerCase()) : undefined
  if (!user) return
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(Date.now() + RESET_MINUTES * 60_000).toISOString()
  await passwordResetsRepository.insert(ctx.db, { userId: user.id, tokenHash: sha256(token), expiresAt })
  const text = [
    `Hello ${user.name},`,
    '',
    'Someone (we hope you) asked to choose a new password for your Slotline account. Open this link within',
    `${RESET_MINUTES} minutes to choose one; it works once:`,
    '',
    linkFor(token),
    '',
    'If it was not you, ignore this mail: your password stays as it is.',
  ].join('\n')
  send({ to: user.email, subject: 'Choose a new Slotline password', text }).catch((err) => ctx.log.error({ err }, 'could not send a password reset mail'))
}

/** Whether a reset link can still be used (to show its form or say it expired). */
export async function isResetTokenValid(ctx: AppContext, token: string): Promise<boolean> {
  return /^[A-Za-z0-9_-]{43}$/.test(token) && passwordResetsRepository.isValid(ctx.db, sha256(token))
}

/**
 * Sets a new password through a reset link, in one transaction: the link is used up (and every
 * other link of the account with it), then the password set. Answers the user id; the face ends
 * every session of it (the session store is the face's).
 */
export async function resetPassword(ctx: AppContext, token: string, password: string): Promise<number> {
  const userId = await ctx.db.transaction().execute(async (trx) => {
    const userId = /^[A-Za-z0-9_-]{43}$/.test(token) ? await passwordResetsRepository.use(trx, sha256(token)) : undefined
    if (userId === undefined) throw invalidField('token', 'This link has expired or was used already. Ask for a new one.')
    const user = await usersRepository.findById(trx, userId)
    if (!user) throw invalidField('token', 'This link has expired or was used already. Ask for a new one.')
    await accounts.setPassword(trx, user, password)
    await passwordResetsRepository.endAllFor(trx, userId)
    return userId
  })
  await ctx.verifiedTokens.changed(userId)
  return userId
}
