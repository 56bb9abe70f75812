import { requireOwnerInPerson, type Principal } from '../auth/principal.ts'
import { NO_PASSWORD } from '../auth/accounts.ts'
import { type PendingAuthorization, type ProviderIdentity, singleSignOnProvider } from '../auth/single-sign-on.ts'
import type { SingleSignOnConfig } from '../config.ts'
import type { AppContext } from '../context.ts'
import { invalidField, notFound } from '../kernel/errors.ts'
import { inTransaction } from '../store/db.ts'
import { type SsoIdentity, ssoIdentitiesRepository } from '../store/sso-identities.ts'
import { isUniqueViolation } from '../store/unique-violation.ts'
import { usersRepository } from '../store/users.ts'

export type { ProviderIdentity }

/**
 * Why a provider's person was not let in, each shown in plain words by the face:
 * `email_taken` an account here has the e-mail but is not linked (it links after signing in to it),
 * `not_registered` no account and no automatic ones, `domain` an e-mail domain not allowed,
 * `unverified` the provider does not vouch for the e-mail, `no_email` it gave none.
 */
export type SsoRefusal = 'email_taken' | 'not_registered' | 'domain' | 'unverified' | 'no_email'

export type SsoSignIn = { userId: number; created: boolean } | { refused: SsoRefusal }

function configured(ctx: AppContext): SingleSignOnConfig {
  const sso = ctx.config.singleSignOn
  if (!sso) throw notFound('page')
  return sso
}

/**
 * The provider's authorization address for this browser, and what its session keeps until it
 * returns. `signInAgain` asks the provider for a new sign-in, to confirm a change here.
 */
async function begin(ctx: AppContext, input: { redirectUri: string; signInAgain?: boolean }): Promise<{ url: string; pending: PendingAuthorization }> {
  return singleSignOnProvider.authorizationRequest(ctx, configured(ctx), input.redirectUri, input.signInAgain)
}

/** The person the provider vouched for, or undefined when the answer does not hold (start again). */
async function complete(ctx: AppContext, input: { callbackUrl: URL; pending: PendingAuthorization }): Promise<ProviderIdentity | undefined> {
  return singleSignOnProvider.completeAuthorization(ctx, configured(ctx), input.callbackUrl, input.pending)
}

/** The origin a form starting the flow must be allowed to reach (its redirect goes there). */
async function formAction(ctx: AppContext): Promise<string> {
  return singleSignOnProvider.authorizationOrigin(ctx, configured(ctx))
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1)

/**
 * The account of the provider's person, found by issuer and subject alone. Without one, an
 * account is made only when automatic accounts are on, the provider vouches for the e-mail and
 * its domain is allowed, and no account here has that e-mail: the e-mail never opens an account
 * that exists. Nothing the provider says grants more than an ordinary account.
 */
async function signIn(ctx: AppContext, identity: ProviderIdentity): Promise<SsoSignIn> {
  const sso = configured(ctx)
  const linked = await ssoIdentitiesRepository.userFor(ctx.db, identity.issuer, identity.subject)
  if (linked !== undefined) return { userId: linked, created: false }
  if (!identity.email) return { refused: 'no_email' }
  if (await usersRepository.findByEmail(ctx.db, identity.email)) return { refused: 'email_taken' }
  if (!sso.autoRegister) return { refused: 'not_registered' }
  if (sso.allowedDomains.length && !sso.allowedDomains.includes(domainOf(identity.email))) return { refused: 'domain' }
  if (!identity.emailVerified) return { refused: 'unverified' }
  // No password: the account signs in through the provider (or a passkey it adds) until its
  // owner sets one (a reset link, or the operator), and confirms changes there too.
  const passwordHash = NO_PASSWORD
  const email = identity.email
  try {
    const userId = await inTransaction(ctx.db, async (trx) => {
      const user = await usersRepository.insert(trx, { email, name: (identity.name ?? email.split('@')[0]).slice(0, 100), passwordHash })
      await ssoIdentitiesRepository.link(trx, user.id, identity)
      return user.id
    })
    return { userId, created: true }
  } catch (err) {
    // The same person arriving twice at once: the other arrival made the account.
    if (!isUniqueViolation(err)) throw err
    const again = await ssoIdentitiesRepository.userFor(ctx.db, identity.issuer, identity.subject)
    return again === undefined ? { refused: 'email_taken' } : { userId: again, created: false }
  }
}

/** The signed-in owner links the provider's person to this account; one provider account links to one account here. */
async function link(ctx: AppContext, principal: Principal, identity: ProviderIdentity): Promise<void> {
  requireOwnerInPerson(principal)
  configured(ctx)
  const owner = await ssoIdentitiesRepository.userFor(ctx.db, identity.issuer, identity.subject)
  if (owner === principal.user.id) return
  if (owner !== undefined) throw invalidField('singleSignOn', 'This single sign-on account is already linked to another account here.')
  try {
    await inTransaction(ctx.db, async (trx) => {
      await ssoIdentitiesRepository.unlink(trx, principal.user.id, identity.issuer)
      await ssoIdentitiesRepository.link(trx, principal.user.id, identity)
    })
  } catch (err) {
    if (isUniqueViolation(err)) throw invalidField('singleSignOn', 'This single sign-on account is already linked to another account here.')
    throw err
  }
}

/** Removes the link; refused while password sign-in is off, since nothing else would open the account. */
async function unlink(ctx: AppContext, principal: Principal): Promise<void> {
  requireOwnerInPerson(principal)
  const sso = configured(ctx)
  if (!ctx.config.passwordSignIn) throw invalidField('singleSignOn', 'Single sign-on is the only way to sign in here, so it stays linked.')
  await ssoIdentitiesRepository.unlink(ctx.db, principal.user.id, sso.issuer)
}

/** Whether the account is linked to the single sign-on provider this service uses (it can sign in there). */
export async function isLinkedToProvider(ctx: AppContext, userId: number): Promise<boolean> {
  const sso = ctx.config.singleSignOn
  if (!sso) return false
  return (await ssoIdentitiesRepository.listFor(ctx.db, userId)).some((i) => i.issuer === sso.issuer)
}

/** Whether single sign-on is on, and which provider account (if any) is linked to this account. */
async function status(ctx: AppContext, principal: Principal): Promise<{ on: boolean; linked: SsoIdentity | undefined }> {
  requireOwnerInPerson(principal)
  const sso = ctx.config.singleSignOn
  if (!sso) return { on: false, linked: undefined }
  const linked = (await ssoIdentitiesRepository.listFor(ctx.db, principal.user.id)).find((i) => i.issuer === sso.issuer)
  return { on: true, linked }
}

export const singleSignOnUseCases = Object.freeze({ begin, complete, formAction, signIn, link, unlink, status })
