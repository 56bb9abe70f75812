import { accounts } from '../auth/accounts.ts'
import { FRESH_SIGN_IN_SECONDS, type ProviderIdentity } from '../auth/single-sign-on.ts'
import type { AppContext } from '../context.ts'
import { AppError, type FieldErrors } from '../kernel/errors.ts'
import { ssoIdentitiesRepository } from '../store/sso-identities.ts'
import type { User } from '../store/users.ts'
import { type SecondFactorAnswer, type SecondFactors, secondFactorUseCases } from './second-factor-use-cases.ts'
import { isLinkedToProvider } from './single-sign-on-use-cases.ts'

/**
 * How the owner in person confirms a change a session alone (a stolen cookie) must not make: a
 * new e-mail, deleting the account. With a password, the password. Without one, what the account
 * signs in with: a second factor (a passkey, a code, a recovery code), else a new sign-in at the
 * single sign-on provider it is linked to. `none`: it has nothing to confirm with.
 */
export type OwnerConfirmation = { by: 'password' } | { by: 'second-factor'; factors: SecondFactors } | { by: 'single-sign-on' } | { by: 'none' }

/** What the owner gives to confirm; `singleSignOn` is the person the provider has just vouched for. */
export type OwnerProof = { currentPassword: string } | SecondFactorAnswer | { singleSignOn: ProviderIdentity }

// The provider's clock and ours may differ by this much.
const CLOCK_SKEW_SECONDS = 30

export async function ownerConfirmationOf(ctx: AppContext, user: User): Promise<OwnerConfirmation> {
  if (accounts.hasPassword(user)) return { by: 'password' }
  const factors = await secondFactorUseCases.of(ctx, user.id)
  if (factors.passkeys || factors.codes) return { by: 'second-factor', factors }
  if (await isLinkedToProvider(ctx, user.id)) return { by: 'single-sign-on' }
  return { by: 'none' }
}

const WHAT_TO_GIVE: Record<Exclude<OwnerConfirmation['by'], 'password'>, string> = {
  'second-factor': 'Your account has no password: confirm it is you with your passkey, or a code from your authenticator app (or a recovery code).',
  'single-sign-on': 'Your account has no password: confirm it is you by signing in again at your single sign-on provider.',
  none: 'Your account has no password, passkey or two-factor codes to confirm this with: set a password first, with “Forgot your password?” on the sign-in page.',
}

async function providerProblem(ctx: AppContext, user: User, identity: ProviderIdentity): Promise<string | undefined> {
  if ((await ssoIdentitiesRepository.userFor(ctx.db, identity.issuer, identity.subject)) !== user.id)
    return 'You signed in at the single sign-on provider as someone who is not linked to this account.'
  const age = identity.authenticatedAt === undefined ? Number.POSITIVE_INFINITY : Date.now() / 1000 - identity.authenticatedAt
  if (age > FRESH_SIGN_IN_SECONDS + CLOCK_SKEW_SECONDS) return 'The single sign-on provider did not ask you to sign in again. Try again.'
  return undefined
}

/**
 * What is wrong with the owner's proof, by field (`currentPassword`, `code`, `credential`,
 * `singleSignOn`, or `confirmation` when nothing the account takes was given); undefined when it
 * holds. A code, a recovery code or a passkey's challenge is used up by the check.
 */
export async function ownerProofProblems(ctx: AppContext, user: User, proof: OwnerProof | undefined): Promise<FieldErrors | undefined> {
  if (accounts.hasPassword(user)) {
    const given = proof && 'currentPassword' in proof ? proof.currentPassword : ''
    return (await accounts.isCurrentPassword(user, given)) ? undefined : { currentPassword: ['This is not your current password.'] }
  }
  if (proof && 'singleSignOn' in proof) {
    const problem = await providerProblem(ctx, user, proof.singleSignOn)
    return problem ? { singleSignOn: [problem] } : undefined
  }
  if (proof && ('code' in proof || 'passkey' in proof)) {
    try {
      await secondFactorUseCases.check(ctx, user.id, proof)
      return undefined
    } catch (err) {
      if (err instanceof AppError && err.errors) return err.errors
      throw err
    }
  }
  const way = (await ownerConfirmationOf(ctx, user)).by
  return { confirmation: [WHAT_TO_GIVE[way === 'password' ? 'none' : way]] }
}
