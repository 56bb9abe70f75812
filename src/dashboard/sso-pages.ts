import { ownerPrincipal } from '../auth/principal.ts'
import { sessionUser } from '../auth/dashboard-sessions.ts'
import * as useCases from '../core/use-cases.ts'
import type { SsoRefusal, User } from '../core/use-cases.ts'
import type { AppContext } from '../context.ts'
import { h } from '../slots/shared/html.ts'
import { HOME, safeNext, signedInUser, withNext } from './current-user.ts'
import { fieldErrorsOf, formCard } from './form-fields.ts'
import type { PageInput, PageRow } from './page-routes.ts'
import { type ProviderConfirmation, ssoCallbackUrl } from './owner-proof-forms.ts'
import { startSecondStep } from './second-step.ts'
import { startSignedInSession } from './signed-in-session.ts'

declare module 'fastify' {
  interface Session {
    /**
     * On the way to the single sign-on provider and back (sso-pages.ts); used once. To sign in,
     * to link the account (`linkUserId`), or to confirm a change (`confirm`, owner-proof-forms.ts).
     */
    ssoPending?: {
      state: string
      nonce: string
      codeVerifier: string
      maxAge?: number
      next: string
      at: number
      linkUserId?: number
      confirm?: ProviderConfirmation
    }
  }
}

export const ssoPages: PageRow[] = [
  { method: 'GET', url: '/login/sso', signedIn: false, handler: startSignIn },
  { method: 'GET', url: '/login/sso/callback', signedIn: false, handler: callback },
  { method: 'GET', url: '/settings/single-sign-on', signedIn: true, handler: async (p) => settingsPage(p) },
  { method: 'POST', url: '/settings/single-sign-on/link', signedIn: true, handler: startLink },
  { method: 'POST', url: '/settings/single-sign-on/unlink', signedIn: true, handler: unlink },
]

/** A person has this long at the provider; then the answer is refused and they start again. */
const PENDING_MS = 15 * 60_000

/**
 * The sign-in page's way in through the provider: a plain link, so it works without script and
 * its redirect to the provider is a navigation (a form's redirect would be held to form-action).
 */
export function ssoButton(ctx: AppContext, next: string) {
  const sso = ctx.config.singleSignOn
  if (!sso) return ''
  return h`<p class="actions"><a class="button" href="${withNext('/login/sso', next)}">${sso.buttonText}</a></p>`
}

/** On the account page: where the link to the provider is made or removed. */
export function ssoSettingsCard(ctx: AppContext) {
  if (!ctx.config.singleSignOn) return ''
  return h`<section class="card" aria-labelledby="sso-h">
<h2 id="sso-h">Single sign-on</h2>
<p>Sign in through your organisation's sign-in service (“${ctx.config.singleSignOn.buttonText}”) instead of your password.</p>
<p class="actions"><a href="/settings/single-sign-on">Single sign-on</a></p>
</section>
`
}

const seeOther = (p: PageInput<any>, location: string) => p.reply.code(303).header('location', location).header('cache-control', 'no-store').send()

async function goToProvider(p: PageInput<any>, next: string, linkUserId?: number) {
  const { url, pending } = await useCases.singleSignOn.begin(p.ctx, { redirectUri: ssoCallbackUrl(p.ctx) })
  p.req.session.ssoPending = { ...pending, next, at: Date.now(), linkUserId }
  return seeOther(p, url)
}

async function startSignIn(p: PageInput<any>) {
  if (!p.ctx.config.singleSignOn) return notOn(p)
  const next = safeNext(p.query.next)
  if (await signedInUser(p.ctx, p.req)) return seeOther(p, next)
  return goToProvider(p, next)
}

function notOn(p: PageInput<any>) {
  return p.render(
    {
      title: 'Single sign-on is off',
      narrow: true,
      body: h`<h1>Single sign-on is off</h1><p>This service does not use single sign-on. <a href="/login">Sign in</a> instead.</p>`,
    },
    404,
  )
}

function problem(p: PageInput<any>, title: string, message: string, status: number) {
  const back = p.ctx.config.singleSignOn ? h`<p class="actions"><a class="button" href="/login">Back to sign in</a></p>` : ''
  return p.render({ title, narrow: true, body: h`<h1>${title}</h1>\n<p class="notice bad" role="alert">${message}</p>\n${back}` }, status)
}

/** Each refusal in words the person can act on; which account an e-mail has is said only to its owner's provider. */
function refusalText(ctx: AppContext, reason: SsoRefusal, email: string | undefined): string {
  const sso = ctx.config.singleSignOn!
  const operator = 'Ask the operator of this service for an account.'
  switch (reason) {
    case 'email_taken':
      return ctx.config.passwordSignIn
        ? `An account here already uses ${email}, but it is not linked to single sign-on. Sign in to it with its password, then link single sign-on under Account.`
        : `An account here already uses ${email}, but it is not linked to single sign-on. Ask the operator of this service to link it.`
    case 'not_registered':
      return `There is no account here for ${email}. ${operator}`
    case 'domain':
      return `New accounts here are only for e-mail addresses at ${sso.allowedDomains.join(', ')}. ${email} is not one of them. ${operator}`
    case 'unverified':
      return `Your single sign-on provider has not confirmed ${email}. Confirm it there, then try again.`
    case 'no_email':
      return 'Your single sign-on provider did not share an e-mail address, so no account could be found or made. Allow it to share your e-mail, then try again.'
  }
}

/** The provider sent the browser back: finish, then sign in (second step included) or link. */
async function callback(p: PageInput<any>) {
  const pending = p.req.session?.ssoPending
  if (pending) delete p.req.session.ssoPending
  if (!p.ctx.config.singleSignOn) return notOn(p)
  const fresh = pending && Date.now() - pending.at < PENDING_MS ? pending : undefined
  if (!fresh) return problem(p, 'Start again', 'This sign-in took too long or was started in another browser. Start again from the sign-in page.', 400)
  const identity = await useCases.singleSignOn.complete(p.ctx, { callbackUrl: new URL(`${p.ctx.config.publicUrl}${p.req.url}`), pending: fresh })
  if (fresh.confirm) return finishConfirmation(p, fresh.confirm, fresh.next, identity)
  if (!identity)
    return problem(p, 'You are not signed in', 'Your single sign-on provider did not sign you in, or its answer could not be checked. Start again.', 401)
  if (fresh.linkUserId !== undefined) return finishLink(p, fresh.linkUserId, identity)
  const outcome = await useCases.singleSignOn.signIn(p.ctx, identity)
  if ('refused' in outcome) return problem(p, 'You are not signed in', refusalText(p.ctx, outcome.refused, identity.email), 403)
  // The account's second factor (codes, or a passkey) applies whichever way the first step was taken.
  if (await useCases.secondFactor.required(p.ctx, outcome.userId)) {
    await p.req.session.regenerate()
    return startSecondStep(p, outcome.userId, fresh.next)
  }
  await startSignedInSession(p.req, outcome.userId)
  return seeOther(p, outcome.created ? HOME : fresh.next)
}

/**
 * Back from signing in again to confirm a change: the provider's word is kept for the change's
 * own page (`next`), which takes it at once and checks it is this account's person.
 */
function finishConfirmation(p: PageInput<any>, confirm: ProviderConfirmation, next: string, identity: useCases.ProviderIdentity | undefined) {
  // The browser must still be signed in to the account that asked for the change.
  if (p.req.session.userId !== confirm.userId) return seeOther(p, '/login')
  if (!identity) return p.redirect(confirm.back, 'Your single sign-on provider did not confirm it is you, so nothing was changed. Try again.', true)
  p.req.session.ssoConfirmed = { ...confirm, identity, at: Date.now() }
  return seeOther(p, next)
}

async function finishLink(p: PageInput<any>, userId: number, identity: useCases.ProviderIdentity) {
  // The browser must still be signed in to the account that started the link.
  const user = p.req.session.userId === userId ? await sessionUser(p.ctx.db, userId) : undefined
  if (!user) return seeOther(p, '/login')
  try {
    await useCases.singleSignOn.link(p.ctx, ownerPrincipal(user), identity)
  } catch (err) {
    const errors = fieldErrorsOf(err)
    if (!errors.singleSignOn) throw err
    return p.redirect('/settings/single-sign-on', errors.singleSignOn[0], true)
  }
  return p.redirect('/settings/single-sign-on', `Single sign-on is linked${identity.email ? ` (${identity.email})` : ''}. You can now sign in with it.`)
}

async function startLink(p: PageInput<User>) {
  if (!p.ctx.config.singleSignOn) return notOn(p)
  return goToProvider(p, '/settings/single-sign-on', p.user.id)
}

async function unlink(p: PageInput<User>) {
  try {
    await useCases.singleSignOn.unlink(p.ctx, ownerPrincipal(p.user))
  } catch (err) {
    const errors = fieldErrorsOf(err)
    if (!errors.singleSignOn) throw err
    return p.redirect('/settings/single-sign-on', errors.singleSignOn[0], true)
  }
  return p.redirect('/settings/single-sign-on', 'Single sign-on is unlinked. Sign in with your password from now on.')
}

async function settingsPage(p: PageInput<User>) {
  const sso = p.ctx.config.singleSignOn
  if (!sso) return notOn(p)
  const state = await useCases.singleSignOn.status(p.ctx, ownerPrincipal(p.user))
  const title = 'Single sign-on'
  const card = state.linked ? linkedCard(p, sso.buttonText, state.linked.email) : linkCard(p, sso.buttonText)
  // The link form's answer redirects to the provider, which the page's form-action must allow.
  const formActions = state.linked ? [] : [await useCases.singleSignOn.formAction(p.ctx)]
  return p.render({ title, active: 'settings', formActions, body: h`<p><a href="/settings">← Account</a></p>\n<h1>${title}</h1>\n${card}` })
}

function linkedCard(p: PageInput<User>, buttonText: string, email: string | null) {
  const intro = h`<p>You can sign in with “${buttonText}”${email ? h` as <strong>${email}</strong>` : ''}.</p>`
  if (!p.ctx.config.passwordSignIn) {
    return h`<section class="card" aria-labelledby="sso-linked-h">
<h2 id="sso-linked-h">Linked</h2>
${intro}<p>It is the only way to sign in here, so it stays linked.</p>
</section>`
  }
  return formCard({
    id: 'sso-linked',
    title: 'Linked',
    intro: h`${intro}<p>Unlink it to sign in with your password only.</p>`,
    action: '/settings/single-sign-on/unlink',
    csrf: p.csrf(),
    fields: [],
    submit: 'Unlink single sign-on',
  })
}

function linkCard(p: PageInput<User>, buttonText: string) {
  return formCard({
    id: 'sso-link',
    title: 'Not linked',
    intro: h`<p>Link your account at your organisation's sign-in service, then use “${buttonText}” on the sign-in page instead of your password. You are sent there to sign in, then back here.</p>`,
    action: '/settings/single-sign-on/link',
    csrf: p.csrf(),
    fields: [],
    submit: 'Link single sign-on',
  })
}
