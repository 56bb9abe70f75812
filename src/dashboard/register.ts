import { accounts } from '../auth/accounts.ts'
import type { User } from '../core/use-cases.ts'
import * as useCases from '../core/use-cases.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { authorizationFormActions } from '../authorization/csp-sources.ts'
import { h } from '../slots/shared/html.ts'
import { HOME, safeNext, withNext } from './current-user.ts'
import { errorSummary, field, fieldErrorsOf, timeZoneSelect } from './form-fields.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { csrfField } from './layout.ts'
import { countRegistration } from './sign-in-limits.ts'
import { startSignedInSession } from './signed-in-session.ts'

export const registerPages: PageRow[] = [
  { method: 'GET', url: '/register', signedIn: false, handler: showRegister },
  { method: 'POST', url: '/register', signedIn: false, handler: register },
]

interface Values {
  name: string
  email: string
  timezone: string
  /** Where the new account lands, as on the sign-in page: a same-origin path, else HOME. */
  next: string
}

function closed(p: PageInput<any>) {
  return p.render(
    {
      title: 'Registration is closed',
      narrow: true,
      body: h`<h1>Registration is closed</h1><p>Accounts on this service are created by its operator. Ask them for one, then <a href="/login">sign in</a>.</p>`,
    },
    403,
  )
}

async function showRegister(p: PageInput<any>) {
  if (p.ctx.config.registration === 'closed') return closed(p)
  return registerForm(p, { name: '', email: '', timezone: 'UTC', next: safeNext(p.query.next) }, undefined, true)
}

async function registerForm(p: PageInput<any>, v: Values, errors?: FieldErrors, fromBrowser = false, status = 200) {
  return p.render(
    {
      title: 'Create an account',
      narrow: true,
      // As on the sign-in page: an authorization request as `next` may redirect on to the application.
      formActions: await authorizationFormActions(p.ctx, v.next),
      body: h`<h1>Create an account</h1>
${errorSummary(errors)}<form method="post" action="/register" class="card" novalidate>
${csrfField(p.csrf())}<input type="hidden" name="next" value="${v.next}">
${field({ name: 'name', label: 'Name', value: v.name, errors, autocomplete: 'name', required: true })}
${field({ name: 'email', label: 'E-mail', type: 'email', value: v.email, errors, autocomplete: 'email', required: true })}
${field({ name: 'password', label: 'Password', type: 'password', errors, autocomplete: 'new-password', required: true, hint: 'At least 8 characters.' })}
${timeZoneSelect({ name: 'timezone', label: 'Time zone (for your statistics)', value: v.timezone, errors, fromBrowser })}
<button type="submit">Create the account</button>
</form>
<p>Already have one? <a href="${withNext('/login', v.next)}">Sign in</a>.</p>`,
    },
    status,
  )
}

async function register(p: PageInput<any>) {
  if (p.ctx.config.registration === 'closed') return closed(p)
  const v: Values = {
    name: text(p.form, 'name').trim(),
    email: text(p.form, 'email').trim(),
    timezone: text(p.form, 'timezone') || 'UTC',
    next: safeNext(text(p.form, 'next')),
  }
  const password = text(p.form, 'password')
  const errors: FieldErrors = {}
  if (!v.name) errors.name = ['Enter a name.']
  else if (v.name.length > 100) errors.name = ['Must be at most 100 characters.']
  await countRegistration(p.ctx, p.req.ip, v.email)
  // Every problem at once, the name's with the account's: one round trip fixes them all.
  const refused = (found: FieldErrors) => {
    // Without outgoing mail there is no way to register an address without saying it is
    // taken; the wording at least does not confirm whose it is.
    if (found.email?.some((m) => m.includes('already exists'))) found.email = ['This e-mail cannot be used for a new account. If it is yours, sign in instead.']
    return registerForm(p, v, { ...errors, ...found }, false, 422)
  }
  const problems = await accounts.newUserProblems(p.ctx.db, { email: v.email, password, timezone: v.timezone })
  if (!v.email) problems.email = ['Enter your e-mail address.']
  if (!password) problems.password = ['Choose a password of at least 8 characters.']
  if (Object.keys(errors).length || Object.keys(problems).length) return refused(problems)
  let user: User
  try {
    user = await useCases.account.register(p.ctx, { name: v.name, email: v.email, password, timezone: v.timezone })
  } catch (err) {
    return refused(fieldErrorsOf(err))
  }
  await startSignedInSession(p.req, user.id)
  return p.redirect(v.next, v.next === HOME ? `Welcome, ${user.name}. Create your first page below.` : `Welcome, ${user.name}.`)
}
