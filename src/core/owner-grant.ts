import { sha256 } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { invalidField } from '../kernel/errors.ts'
import { type ChallengeBinding, passkeysRepository } from '../store/passkeys.ts'

// A new way to sign in (a passkey, two-factor codes) could later confirm anything a password
// confirms, so adding one takes the owner's confirmation first (owner-proof.ts). The confirmation
// is kept for the session that gave it, a short while, beside the passkey challenges: bound to a
// digest of the session id, never the id itself, and spent by the addition it allowed.

/** Long enough to scan a QR code or find a security key, short enough that a left tab does not keep it. */
const GRANT_MS = 10 * 60_000

const UNCONFIRMED = 'Confirm it is you first: a new way to sign in needs the same confirmation as a new e-mail.'

const grantOf = (sessionId: string, userId: number): { key: string; binding: ChallengeBinding } => {
  const sessionHash = sha256(sessionId)
  return { key: `owner-confirmed ${sessionHash}`, binding: { sessionHash, purpose: 'owner-confirmed', userId } }
}

/** Keeps the owner's confirmation, given just now, for this session. */
export async function keepOwnerGrant(ctx: AppContext, userId: number, sessionId: string): Promise<void> {
  const { key, binding } = grantOf(sessionId, userId)
  await passkeysRepository.takeChallenge(ctx.db, key, binding)
  await passkeysRepository.keepChallenge(ctx.db, key, binding, new Date(Date.now() + GRANT_MS).toISOString())
}

/** Whether this session holds the owner's confirmation (still unspent). */
export function holdsOwnerGrant(ctx: AppContext, userId: number, sessionId: string): Promise<boolean> {
  const { key, binding } = grantOf(sessionId, userId)
  return passkeysRepository.holdsChallenge(ctx.db, key, binding)
}

/** Refuses, on `field`, a session that does not hold the owner's confirmation. */
export async function requireOwnerGrant(ctx: AppContext, userId: number, sessionId: string, field: string): Promise<void> {
  if (!(await holdsOwnerGrant(ctx, userId, sessionId))) throw invalidField(field, UNCONFIRMED)
}

/** Spends this session's confirmation; refuses, on `field`, when there was none (or another request spent it). */
export async function spendOwnerGrant(ctx: AppContext, userId: number, sessionId: string, field: string): Promise<void> {
  const { key, binding } = grantOf(sessionId, userId)
  if (!(await passkeysRepository.takeChallenge(ctx.db, key, binding))) throw invalidField(field, UNCONFIRMED)
}
