import type { AppContext } from '../context.ts'
import * as useCases from '../core/use-cases.ts'
import type { OwnerConfirmation, OwnerProof, ProviderIdentity, User } from '../core/use-cases.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { sendOptions } from './passkey-forms.ts'
import { answerOf } from './second-step.ts'

// A change a stolen session must not make (a new e-mail, deleting the account) is confirmed by
// the owner: the password when the account has one; else the second step it signs in with (a
// passkey, a code, a recovery code), the same forms as at sign-in; else a new sign-in at the
// single sign-on provider, a round trip through /login/sso/callback.

/** A change waiting for the provider's word: what it is, and where its page is. */
export interface ProviderConfirmation {
  userId: number
  action: 'email' | 'delete'
  newEmail?: string
  /** The page the change was asked on, shown again when the provider does not confirm. */
  back: string
}

declare module 'fastify' {
  interface Session {
    /** The provider has just confirmed the owner for this change (sso-pages.ts); used once. */
    ssoConfirmed?: ProviderConfirmation & { identity: ProviderIdentity; at: number }
  }
}

/** Where a passkey's challenge for a signed-in step comes from (a change here, or an approval). */
export const CONFIRM_PASSKEY_OPTIONS = '/settings/confirm/passkey-options'

export const ownerProofPages: PageRow[] = [{ method: 'POST', url: CONFIRM_PASSKEY_OPTIONS, signedIn: true, handler: passkeyOptions }]

async function passkeyOptions(p: PageInput<User>) {
  return sendOptions(p, () => useCases.passkeys.signInOptions(p.ctx, { sessionId: p.req.session.sessionId, userId: p.user.id }))
}

export const ssoCallbackUrl = (ctx: AppContext) => `${ctx.config.publicUrl}/login/sso/callback`

/** The proof a change's form sent, read by how the account confirms; undefined for the provider's (a round trip). */
export function proofOf(p: PageInput<User>, way: OwnerConfirmation, passwordField: string): OwnerProof | undefined {
  if (way.by === 'password') return { currentPassword: text(p.form, passwordField) }
  if (way.by === 'second-factor') return p.form.credential !== undefined || p.form.code !== undefined ? answerOf(p, way.factors) : undefined
  return undefined
}

/** Sends the browser to the provider to sign in again; `next` takes the change on when it comes back. */
export async function confirmAtProvider(p: PageInput<User>, confirm: Omit<ProviderConfirmation, 'userId'>, next: string) {
  const { url, pending } = await useCases.singleSignOn.begin(p.ctx, { redirectUri: ssoCallbackUrl(p.ctx), signInAgain: true })
  p.req.session.ssoPending = { ...pending, next, at: Date.now(), confirm: { ...confirm, userId: p.user.id } }
  return p.reply.code(303).header('location', url).header('cache-control', 'no-store').send()
}

// The callback sends the browser straight on: the provider's word is taken within this.
const CONFIRMED_MS = 60_000

/** The provider's word for `action` by this user, taken (it works once); undefined when there is none. */
export function takeProviderProof(p: PageInput<User>, action: ProviderConfirmation['action']): { proof: OwnerProof; newEmail?: string } | undefined {
  const confirmed = p.req.session.ssoConfirmed
  if (confirmed) delete p.req.session.ssoConfirmed
  if (!confirmed || confirmed.userId !== p.user.id || confirmed.action !== action || Date.now() - confirmed.at > CONFIRMED_MS) return undefined
  return { proof: { singleSignOn: confirmed.identity }, newEmail: confirmed.newEmail }
}

/** The form-action a page needs when its change goes to the provider (its answer redirects there). */
export async function providerFormActions(ctx: AppContext, way: OwnerConfirmation): Promise<string[]> {
  return way.by === 'single-sign-on' ? [await useCases.singleSignOn.formAction(ctx)] : []
}
