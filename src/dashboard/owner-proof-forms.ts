import { ownerPrincipal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import * as useCases from '../core/use-cases.ts'
import type { OwnerConfirmation, OwnerProof, ProviderIdentity, User } from '../core/use-cases.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import { field, fieldErrorsOf, formCard } from './form-fields.ts'
import { csrfField } from './layout.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { sendOptions } from './passkey-forms.ts'
import { answerOf, factorWords, secondStepChoices, stepStateOf } from './second-step.ts'
import { countSignIn } from './sign-in-limits.ts'

// A change a stolen session must not make (a new e-mail, deleting the account) is confirmed by
// the owner: the password when the account has one; else the second step it signs in with (a
// passkey, a code, a recovery code), the same forms as at sign-in; else a new sign-in at the
// single sign-on provider, a round trip through /login/sso/callback.

/** A change waiting for the provider's word: what it is, and where its page is. */
export interface ProviderConfirmation {
  userId: number
  action: 'email' | 'delete' | 'add-sign-in'
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

/**
 * A page that adds a way to sign in (a passkey, two-factor codes): the owner confirms first, at
 * `${base}/owner`, and the core keeps that for this session a short while.
 */
export interface AddSignInPage {
  base: string
  /** Shows the page again with the confirmation's refusal (a 422). */
  show: (p: PageInput<User>, errors: FieldErrors) => Promise<unknown>
}

// Its own name: the passkeys page has a current-password field of its own.
const OWNER_PASSWORD = 'ownerPassword'

/** The confirmation's routes: its form's answer, and the way back from the single sign-on provider. */
export function addSignInRows(page: AddSignInPage): PageRow[] {
  return [
    { method: 'POST', url: `${page.base}/owner`, signedIn: true, handler: (p) => confirmToAdd(p, page) },
    { method: 'GET', url: `${page.base}/owner/single-sign-on`, signedIn: true, handler: (p) => confirmedToAddByProvider(p, page) },
  ]
}

async function confirmToAdd(p: PageInput<User>, page: AddSignInPage) {
  const way = await useCases.account.confirmation(p.ctx, ownerPrincipal(p.user))
  if (way.by === 'single-sign-on') return confirmAtProvider(p, { action: 'add-sign-in', back: page.base }, `${page.base}/owner/single-sign-on`)
  return keepConfirmation(p, page, proofOf(p, way, OWNER_PASSWORD))
}

async function confirmedToAddByProvider(p: PageInput<User>, page: AddSignInPage) {
  const confirmed = takeProviderProof(p, 'add-sign-in')
  if (!confirmed) return p.redirect(page.base, 'Nothing was added: confirm it is you at your single sign-on provider first.', true)
  return keepConfirmation(p, page, confirmed.proof)
}

async function keepConfirmation(p: PageInput<User>, page: AddSignInPage, proof: OwnerProof | undefined) {
  // A password guess (or a code, or a passkey's answer): the sign-in limits count it.
  await countSignIn(p.ctx, p.req.ip, p.user.email)
  try {
    await useCases.account.confirmToAddSignIn(p.ctx, ownerPrincipal(p.user), { sessionId: p.req.session.sessionId, proof })
  } catch (err) {
    return page.show(p, fieldErrorsOf(err, { currentPassword: OWNER_PASSWORD }))
  }
  return p.redirect(page.base, 'It is you: go on within ten minutes.')
}

/** Whether this browser's session holds the owner's confirmation to add a way to sign in. */
export const confirmedToAdd = (p: PageInput<User>) =>
  useCases.account.confirmedToAddSignIn(p.ctx, ownerPrincipal(p.user), { sessionId: p.req.session.sessionId })

/** The card asking the owner to confirm before `what` is added: the password, else the second step, else the provider. */
export function confirmToAddCard(
  p: PageInput<User>,
  way: OwnerConfirmation,
  o: { base: string; what: string; errors: FieldErrors /** A refused addition, for want of the confirmation. */; problem?: string },
): SafeHtml {
  const action = `${o.base}/owner`
  const title = `Confirm it is you to add ${o.what}`
  const refused = o.problem ? h`<p class="notice bad" role="alert">${o.problem}</p>\n` : ''
  if (way.by === 'password') {
    return formCard({
      id: 'owner',
      title,
      intro: h`${refused}<p>A new way to sign in opens your account like your password does, so type your password first.</p>`,
      action,
      csrf: p.csrf(),
      errors: Object.keys(o.errors).length ? o.errors : undefined,
      fields: [
        field({
          name: OWNER_PASSWORD,
          label: 'Your current password, to confirm',
          type: 'password',
          errors: o.errors,
          autocomplete: 'current-password',
          required: true,
        }),
      ],
      submit: 'Continue',
    })
  }
  const unconfirmed = [...(o.problem ? [o.problem] : []), ...(o.errors.singleSignOn ?? []), ...(o.errors.confirmation ?? [])]
  const problem = unconfirmed.length ? h`<p class="notice bad" role="alert">${unconfirmed.join(' ')}</p>\n` : ''
  const how =
    way.by === 'second-factor'
      ? h`<p>Your account has no password: confirm it is you with ${factorWords(way.factors)}.</p>
${secondStepChoices(p, way.factors, {
  passkey: { action, options: CONFIRM_PASSKEY_OPTIONS, submit: 'Confirm with your passkey' },
  code: { action, submit: 'Confirm' },
  state: stepStateOf(o.errors),
})}`
      : way.by === 'single-sign-on'
        ? h`<p>Your account has no password: confirm it is you by signing in again at your single sign-on provider. You come straight back here.</p>
<form method="post" action="${action}">
${csrfField(p.csrf())}
<button type="submit">Sign in again to confirm</button>
</form>`
        : h`<p>Your account has no password, passkey, two-factor codes or single sign-on to confirm this with: set a password first, with “Forgot your password?” on the sign-in page.</p>`
  return h`<section class="card" aria-labelledby="owner-h">
<h2 id="owner-h">${title}</h2>
${problem}${how}
</section>`
}
