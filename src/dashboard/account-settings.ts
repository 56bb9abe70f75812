import { ownerPrincipal } from '../auth/principal.ts'
import type { User } from '../core/use-cases.ts'
import { accountLifecycleCard } from './account-lifecycle.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { h } from '../slots/shared/html.ts'
import * as useCases from '../core/use-cases.ts'
import { field, fieldErrorsOf, formCard, timeZoneSelect } from './form-fields.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { countRegistration, countSignIn } from './sign-in-limits.ts'

export const accountSettingsPages: PageRow[] = [
  { method: 'GET', url: '/settings', signedIn: true, handler: async (p) => settingsPage(p, {}) },
  { method: 'POST', url: '/settings', signedIn: true, handler: saveAccount },
  { method: 'POST', url: '/settings/password', signedIn: true, handler: changePassword },
]

interface State {
  account?: { name: string; email: string; timezone: string; errors: FieldErrors }
  passwordErrors?: FieldErrors
}

function settingsPage(p: PageInput<User>, s: State, status = 200) {
  const v = s.account ?? { name: p.user.name, email: p.user.email, timezone: p.user.timezone, errors: undefined }
  return p.render(
    {
      title: 'Account',
      active: 'settings',
      body: h`<h1>Account</h1>
<div class="grid two">
${formCard({
  id: 'account',
  title: 'Your details',
  action: '/settings',
  csrf: p.csrf(),
  errors: s.account?.errors,
  fields: [
    field({ name: 'name', label: 'Name', value: v.name, errors: v.errors, autocomplete: 'name', required: true }),
    field({ name: 'email', label: 'E-mail', type: 'email', value: v.email, errors: v.errors, autocomplete: 'email', required: true }),
    timeZoneSelect({ name: 'timezone', label: 'Time zone (days of your statistics)', value: v.timezone, errors: v.errors }),
  ],
  submit: 'Save',
})}
${formCard({
  id: 'password',
  title: 'Password',
  action: '/settings/password',
  csrf: p.csrf(),
  errors: s.passwordErrors,
  fields: [
    field({ name: 'currentPassword', label: 'Current password', type: 'password', errors: s.passwordErrors, autocomplete: 'current-password', required: true }),
    field({
      name: 'newPassword',
      label: 'New password',
      type: 'password',
      errors: s.passwordErrors,
      autocomplete: 'new-password',
      required: true,
      hint: 'At least 8 characters. Other browsers signed in to this account are signed out.',
    }),
  ],
  submit: 'Change the password',
})}
</div>
${accountLifecycleCard}`,
    },
    status,
  )
}

async function saveAccount(p: PageInput<User>) {
  const v = { name: text(p.form, 'name'), email: text(p.form, 'email'), timezone: text(p.form, 'timezone') }
  // Whether an e-mail is taken shows here as it does at registration: probes share its limit.
  if (v.email.trim().toLowerCase() !== p.user.email.toLowerCase()) await countRegistration(p.ctx, p.req.ip, v.email)
  try {
    await useCases.account.update(p.ctx, ownerPrincipal(p.user), v)
  } catch (err) {
    return settingsPage(p, { account: { ...v, errors: fieldErrorsOf(err) } }, 422)
  }
  return p.redirect('/settings', 'Your details are saved.')
}

async function changePassword(p: PageInput<User>) {
  // Each try is a password guess against an argon2 hash: the sign-in limits count it.
  await countSignIn(p.ctx, p.req.ip, p.user.email)
  try {
    // Whoever else holds a session of this account (a stolen cookie included) is signed out;
    // this browser continues under a fresh session id.
    await useCases.account.changePassword(p.ctx, ownerPrincipal(p.user), {
      password: text(p.form, 'newPassword'),
      currentPassword: text(p.form, 'currentPassword'),
      keepSessionId: p.req.session.sessionId,
    })
  } catch (err) {
    return settingsPage(p, { passwordErrors: fieldErrorsOf(err) }, 422)
  }
  await p.req.session.regenerate()
  p.req.session.userId = p.user.id
  return p.redirect('/settings', 'Your password is changed. Other browsers were signed out.')
}
