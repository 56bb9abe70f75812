import { createHmac } from 'node:crypto'
import { accounts } from '../auth/accounts.ts'
import { requireOwnerInPerson, type Principal } from '../auth/principal.ts'
import { sha256 } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { invalidField, notFound } from '../kernel/errors.ts'
import { type ChallengeBinding, passkeysRepository } from '../store/passkeys.ts'
import { twoFactorRepository } from '../store/two-factor.ts'
import { requireOwnerGrant, spendOwnerGrant } from './owner-grant.ts'
import { isLinkedToProvider } from './single-sign-on-use-cases.ts'

// Loaded on first use: only passkey ceremonies need it, and a resting process should not hold it.
const webauthn = () => import('@simplewebauthn/server')

/** How long a challenge may wait for its answer. */
const CHALLENGE_MS = 5 * 60_000
const MAX_PASSKEYS = 20
const MAX_NAME = 60
const REFUSED = 'This passkey was not accepted. Try again, or sign in another way.'

export interface PasskeyView {
  id: number
  name: string
  createdAt: string
  lastUsedAt: string | null
}

/** The relying party is PUBLIC_URL's host: passkeys made here work only at that address. */
function relyingParty(ctx: AppContext) {
  const url = new URL(ctx.config.publicUrl)
  return { rpID: url.hostname, origin: url.origin }
}

/** The challenge is kept bound to a digest of the session id, never the id itself. */
const bindingOf = (sessionId: string, purpose: ChallengeBinding['purpose'], userId: number | null): ChallengeBinding => ({
  sessionHash: sha256(sessionId),
  purpose,
  userId,
})

async function keep(ctx: AppContext, challenge: string, binding: ChallengeBinding) {
  await passkeysRepository.keepChallenge(ctx.db, challenge, binding, new Date(Date.now() + CHALLENGE_MS).toISOString())
}

/** The browser's answer, as posted by the page's script: JSON with the fields every ceremony has. */
function parseAnswer(text: string): { id: string; challenge: string; json: any } {
  if (!text) throw invalidField('credential', 'Passkeys need JavaScript in this browser. Turn it on, or sign in another way.')
  try {
    const json = JSON.parse(text)
    const clientData = JSON.parse(Buffer.from(String(json.response.clientDataJSON), 'base64url').toString('utf8'))
    if (typeof json.id !== 'string' || typeof clientData.challenge !== 'string') throw new Error('incomplete')
    return { id: json.id, challenge: clientData.challenge, json }
  } catch {
    throw invalidField('credential', REFUSED)
  }
}

/**
 * Spends the answer's challenge (whatever follows, it never works again) and checks it was
 * issued to this session for this purpose; a refusal says nothing of why.
 */
async function spend(ctx: AppContext, challenge: string, binding: ChallengeBinding): Promise<void> {
  if (!(await passkeysRepository.takeChallenge(ctx.db, challenge, binding))) throw invalidField('credential', REFUSED)
}

function cleanName(raw: string): string {
  const name = raw.trim() || 'Passkey'
  if (name.length > MAX_NAME) throw invalidField('name', `Must be at most ${MAX_NAME} characters.`)
  return name
}

async function list(ctx: AppContext, principal: Principal): Promise<PasskeyView[]> {
  requireOwnerInPerson(principal)
  return (await passkeysRepository.listFor(ctx.db, principal.user.id)).map((p) => ({
    id: p.id,
    name: p.name,
    createdAt: p.createdAt,
    lastUsedAt: p.lastUsedAt,
  }))
}

/** Whether the account has a passkey: then signing in by password takes it (or a code) as a second step. */
async function has(ctx: AppContext, userId: number): Promise<boolean> {
  return (await passkeysRepository.countFor(ctx.db, userId)) > 0
}

/**
 * Options for adding a passkey (a discoverable one, verified by the device when it can), to a
 * session that holds the owner's confirmation (owner-grant.ts).
 */
async function registrationOptions(ctx: AppContext, principal: Principal, input: { sessionId: string }) {
  requireOwnerInPerson(principal)
  const user = principal.user
  await requireOwnerGrant(ctx, user.id, input.sessionId, 'credential')
  const existing = await passkeysRepository.listFor(ctx.db, user.id)
  if (existing.length >= MAX_PASSKEYS) throw invalidField('name', `An account can have at most ${MAX_PASSKEYS} passkeys. Remove one first.`)
  const { rpID } = relyingParty(ctx)
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: 'Slotline',
    rpID,
    userName: user.email,
    userDisplayName: user.name,
    // The same opaque handle every time, so a device replaces its old passkey for this account.
    userID: new Uint8Array(createHmac('sha256', ctx.secret).update(`passkey user ${user.id}`).digest().subarray(0, 16)),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    timeout: CHALLENGE_MS / 2,
  })
  await keep(ctx, options.challenge, bindingOf(input.sessionId, 'register', user.id))
  return options
}

/**
 * Verifies the browser's answer and keeps the passkey, spending the session's confirmation by
 * the owner; every other session of the account ends.
 */
async function register(
  ctx: AppContext,
  principal: Principal,
  input: { sessionId: string; credential: string; name: string; keepSessionId?: string },
): Promise<{ sessionsEnded: number }> {
  requireOwnerInPerson(principal)
  const userId = principal.user.id
  const name = cleanName(input.name)
  const answer = parseAnswer(input.credential)
  await spend(ctx, answer.challenge, bindingOf(input.sessionId, 'register', userId))
  const { rpID, origin } = relyingParty(ctx)
  const verified = await (await webauthn())
    .verifyRegistrationResponse({
      response: answer.json,
      expectedChallenge: answer.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    })
    .catch(() => undefined)
  if (!verified?.verified) throw invalidField('credential', REFUSED)
  const { credential } = verified.registrationInfo
  if (await passkeysRepository.byCredentialId(ctx.db, credential.id)) throw invalidField('credential', 'This passkey is added already.')
  await spendOwnerGrant(ctx, userId, input.sessionId, 'credential')
  await passkeysRepository.insert(ctx.db, {
    userId,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name,
  })
  return { sessionsEnded: await ctx.sessions.endAllFor(userId, input.keepSessionId) }
}

async function rename(ctx: AppContext, principal: Principal, input: { id: number; name: string }): Promise<void> {
  requireOwnerInPerson(principal)
  if (!(await passkeysRepository.rename(ctx.db, principal.user.id, input.id, cleanName(input.name)))) throw notFound('passkey')
}

/**
 * Removes a passkey (not the last one of an account with neither a password nor single sign-on
 * to sign in with); other sessions end.
 */
async function remove(ctx: AppContext, principal: Principal, input: { id: number; keepSessionId?: string }): Promise<{ sessionsEnded: number }> {
  requireOwnerInPerson(principal)
  const userId = principal.user.id
  const otherWay = accounts.hasPassword(principal.user) || (await isLinkedToProvider(ctx, userId))
  if (!otherWay && (await passkeysRepository.countFor(ctx.db, userId)) <= 1) {
    throw invalidField('passkey', 'This is your only passkey and your account has no password: removing it would leave no way to sign in.')
  }
  if (!(await passkeysRepository.remove(ctx.db, userId, input.id))) throw notFound('passkey')
  return { sessionsEnded: await ctx.sessions.endAllFor(userId, input.keepSessionId) }
}

/**
 * Options for signing in with a passkey: any passkey of this service the device holds (alone),
 * or one of `userId`'s after the password (the second step).
 */
async function signInOptions(ctx: AppContext, input: { sessionId: string; userId?: number }) {
  const { rpID } = relyingParty(ctx)
  const second = input.userId !== undefined
  const allowed = second ? await passkeysRepository.listFor(ctx.db, input.userId as number) : []
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID,
    allowCredentials: allowed.map((p) => ({ id: p.credentialId, transports: p.transports })),
    userVerification: second ? 'preferred' : 'required',
    timeout: CHALLENGE_MS / 2,
  })
  await keep(ctx, options.challenge, bindingOf(input.sessionId, second ? 'second-step' : 'sign-in', input.userId ?? null))
  return options
}

/**
 * Checks a passkey's answer: the challenge this session was given (spent now), a passkey we
 * keep (of `userId` in the second step), its signature, and a counter that moved on. Alone, the
 * device must have verified its user. Answers whose account it opens.
 */
async function signIn(ctx: AppContext, input: { sessionId: string; credential: string; userId?: number }): Promise<{ userId: number }> {
  const answer = parseAnswer(input.credential)
  const second = input.userId !== undefined
  await spend(ctx, answer.challenge, bindingOf(input.sessionId, second ? 'second-step' : 'sign-in', input.userId ?? null))
  const stored = await passkeysRepository.byCredentialId(ctx.db, answer.id)
  if (!stored || (second && stored.userId !== input.userId)) throw invalidField('credential', REFUSED)
  const { rpID, origin } = relyingParty(ctx)
  const verified = await (await webauthn())
    .verifyAuthenticationResponse({
      response: answer.json,
      expectedChallenge: answer.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: stored.credentialId,
        publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
        counter: stored.counter,
        transports: stored.transports as any,
      },
      requireUserVerification: !second,
    })
    .catch(() => undefined)
  if (!verified?.verified) throw invalidField('credential', REFUSED)
  if (!(await passkeysRepository.recordUse(ctx.db, stored.id, stored.counter, verified.authenticationInfo.newCounter)))
    throw invalidField('credential', REFUSED)
  return { userId: stored.userId }
}

/** Whether the account may drop its password: a passkey to sign in with and recovery codes left. */
async function passwordStatus(ctx: AppContext, principal: Principal): Promise<{ hasPassword: boolean; canDrop: boolean }> {
  requireOwnerInPerson(principal)
  const userId = principal.user.id
  const hasPassword = accounts.hasPassword(principal.user)
  const canDrop = hasPassword && (await has(ctx, userId)) && (await twoFactorRepository.recoveryCodesLeft(ctx.db, userId)) > 0
  return { hasPassword, canDrop }
}

/** Leaves the account without a password, given it (a stolen session alone cannot); other sessions end. */
async function dropPassword(
  ctx: AppContext,
  principal: Principal,
  input: { currentPassword: string; keepSessionId?: string },
): Promise<{ sessionsEnded: number }> {
  requireOwnerInPerson(principal)
  if (!(await passwordStatus(ctx, principal)).canDrop)
    throw invalidField('currentPassword', 'First add a passkey and turn on two-factor codes, which give you recovery codes.')
  if (!(await accounts.isCurrentPassword(principal.user, input.currentPassword))) throw invalidField('currentPassword', 'This is not your current password.')
  await accounts.dropPassword(ctx.db, principal.user)
  return { sessionsEnded: await ctx.sessions.endAllFor(principal.user.id, input.keepSessionId) }
}

export const passkeyUseCases = Object.freeze({ list, has, registrationOptions, register, rename, remove, signInOptions, signIn, passwordStatus, dropPassword })
