import type { AppContext } from '../context.ts'
import { passkeyUseCases } from './passkey-use-cases.ts'
import { twoFactorUseCases } from './two-factor-use-cases.ts'

/** What the second step of an account can take: a passkey, a code (from the app, or a recovery code), or either. */
export interface SecondFactors {
  passkeys: boolean
  codes: boolean
}

/** One answer to a second step: a code, or a passkey's answer to the challenge given to `sessionId`. */
export type SecondFactorAnswer = { code: string } | { passkey: { sessionId: string; credential: string } }

async function of(ctx: AppContext, userId: number): Promise<SecondFactors> {
  return { passkeys: await passkeyUseCases.has(ctx, userId), codes: await twoFactorUseCases.required(ctx, userId) }
}

/**
 * Whether the account has a second factor: then a right password (or the provider's word) only
 * opens the second step, and approving an application takes one too.
 */
async function required(ctx: AppContext, userId: number): Promise<boolean> {
  const factors = await of(ctx, userId)
  return factors.passkeys || factors.codes
}

/**
 * Checks an answer to the account's second step and uses it up (the code's time step, the
 * recovery code, the passkey's challenge); a refusal is a field error on `code` or `credential`.
 * Callers count attempts (the sign-in limits).
 */
async function check(ctx: AppContext, userId: number, answer: SecondFactorAnswer): Promise<void> {
  if ('passkey' in answer) await passkeyUseCases.signIn(ctx, { ...answer.passkey, userId })
  else await twoFactorUseCases.checkSignIn(ctx, userId, answer.code)
}

export const secondFactorUseCases = Object.freeze({ of, required, check })
