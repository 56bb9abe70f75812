import { authorizationFormActions } from '../authorization/csp-sources.ts'
import { accounts } from '../auth/accounts.ts'
import { type FieldErrors, notFound } from '../kernel/errors.ts'
import { h } from '../slots/shared/html.ts'
import { HOME, safeNext, signedInUser, withNext } from './current-user.ts'
import { field } from './form-fields.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { csrfField } from './layout.ts'
import { sessionCookieName } from './scope.ts'
import { welcomePage } from './welcome.ts'
import { countSignIn } from './sign-in-limits.ts'
import { startSecondStep } from './second-step.ts'
import * as useCases from '../core/use-cases.ts'
import { startSignedInSession } from './signed-in-session.ts'
import { ssoButton } from './sso-pages.ts'
import { passkeySignInSection } from './passkey-sign-in.ts'
import { passkeyScript } from './passkey-forms.ts'

export const signInPages: PageRow[] = [
  { method: 'GET', url: '/', signedIn: false, handler: home },
  { method: 'GET', url: '/login', signedIn: false, handler: showSignIn },
  { method: 'POST', url: '/login', signedIn: false, handler: signIn },
  { method: 'POST', url: '/logout', signedIn: false, handler: signOut },
  // Under the dashboard's own segments, an unknown address is a page too, not a JSON envelope.
  { method: 'GET', url: '/settings/*', signedIn: false, handler: unknownPage },
  { method: 'GET', url: '/my-links/*', signedIn: false, handler: unknownPage },
]

async function unknownPage(): Promise<never> {
  throw notFound('page')
}

/** The service's root, where a person who only knows the host lands: the dashboard, or what this is. */
async function home(p: PageInput<any>) {
  if (!(await signedInUser(p.ctx, p.req))) return welcomePage(p)
  return p.reply.code(303).header('location', HOME).header('cache-control', 'no-store').send()
}

async function showSignIn(p: PageInput<any>) {
  const next = safeNext(p.query.next)
  if (await signedInUser(p.ctx, p.req)) return p.reply.code(303).header('location', next).header('cache-control', 'no-store').send()
  return signInForm(p, { email: '', next })
}

async function signInForm(p: PageInput<any>, o: { email: string; next: string; errors?: FieldErrors }, status = 200) {
  if (!p.ctx.config.passwordSignIn) return ssoOnlyPage(p, o.next, status)
  const registration = p.ctx.config.registration === 'open'
  return p.render(
    {
      title: 'Sign in',
      narrow: true,
      formActions: await authorizationFormActions(p.ctx, o.next),
      own: passkeyScript,
      body: h`<h1>Sign in</h1>
${signInProblem(o.errors)}<form method="post" action="/login" class="card" novalidate>
${csrfField(p.csrf())}<input type="hidden" name="next" value="${o.next}">
${field({ name: 'email', label: 'E-mail', type: 'email', value: o.email, errors: o.errors, autocomplete: 'username', required: true })}
${field({ name: 'password', label: 'Password', type: 'password', errors: o.errors, autocomplete: 'current-password', required: true })}
<button type="submit">Sign in</button>
</form>
${ssoButton(p.ctx, o.next)}<p><a href="/login/forgot">Forgot your password?</a></p>
${passkeySignInSection(p, o.next)}
${registration ? h`<p>No account yet? <a href="${withNext('/register', o.next)}">Create one</a>.</p>` : h`<p class="muted">New accounts are created by the operator of this service.</p>`}`,
    },
    status,
  )
}

/** With password sign-in off: the provider's button alone, and no password form to post. */
function ssoOnlyPage(p: PageInput<any>, next: string, status = 200) {
  return p.render(
    {
      title: 'Sign in',
      narrow: true,
      body: h`<h1>Sign in</h1>
${status === 403 ? h`<p class="notice bad" role="alert">Signing in with a password is turned off here. Use the button below.</p>\n` : ''}<p>This service signs you in through your organisation's sign-in service.</p>
${ssoButton(p.ctx, next)}`,
    },
    status,
  )
}

/**
 * What to do next, at the top of a refused sign-in. Not the forms' "Nothing was saved": signing
 * in saves nothing, and the person needs the way forward.
 */
function signInProblem(errors: FieldErrors | undefined) {
  if (!errors || !Object.keys(errors).length) return ''
  const wrong = errors.password?.includes(WRONG)
  return h`<p class="notice bad" role="alert">${
    wrong
      ? 'Check the e-mail and the password, then try again. If you forgot the password, use “Forgot your password?” below.'
      : 'Fill in your e-mail and password to sign in.'
  }</p>`
}

const WRONG = 'The e-mail or the password is not right.'

async function signIn(p: PageInput<any>) {
  if (!p.ctx.config.passwordSignIn) return ssoOnlyPage(p, safeNext(text(p.form, 'next')), 403)
  const email = text(p.form, 'email').trim()
  const password = text(p.form, 'password')
  const next = safeNext(text(p.form, 'next'))
  if (!email || !password) {
    const errors: FieldErrors = {}
    if (!email) errors.email = ['Enter your e-mail.']
    if (!password) errors.password = ['Enter your password.']
    return signInForm(p, { email, next, errors }, 422)
  }
  await countSignIn(p.ctx, p.req.ip, email)
  const user = await accounts.signIn(p.ctx.db, email, password)
  // One message for both mistakes: which one it was would tell whether the e-mail has an account.
  if (!user) return signInForm(p, { email, next, errors: { password: [WRONG] } }, 401)
  // With two-factor codes on or a passkey added, the password only opens the second step (second-step.ts), in a
  // fresh session: an id planted before (session fixation) is worth nothing after.
  if (await useCases.secondFactor.required(p.ctx, user.id)) {
    await p.req.session.regenerate()
    return startSecondStep(p, user.id, next)
  }
  await startSignedInSession(p.req, user.id)
  return p.reply.code(303).header('location', next).header('cache-control', 'no-store').send()
}

async function signOut(p: PageInput<any>) {
  // Destroying removes the record from the store (SQL or Redis): the cookie is dead everywhere.
  if (p.req.session) await p.req.session.destroy()
  p.reply.clearCookie(sessionCookieName(p.ctx), { path: '/' })
  return p.reply.code(303).header('location', '/login').header('cache-control', 'no-store').send()
}
