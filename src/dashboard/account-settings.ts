import { ownerPrincipal } from '../auth/principal.ts'
import { EMAIL_CHANGE_MINUTES, passwordReset, type User } from '../core/use-cases.ts'
import { accountLifecycleCard } from './account-lifecycle.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { h } from '../slots/shared/html.ts'
import * as useCases from '../core/use-cases.ts'
import { field, fieldErrorsOf, formCard, timeZoneSelect } from './form-fields.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { countRegistration, countSignIn } from './sign-in-limits.ts'
import { startSignedInSession } from './signed-in-session.ts'
import { ssoSettingsCard } from './sso-pages.ts'

export const accountSettingsPages: PageRow[] = [
  { method: 'GET', url: '/settings', signedIn: true, handler: async (p) => settingsPage(p, {}) },
  { method: 'POST', url: '/settings', signedIn: true, handler: saveAccount },
  { method: 'POST', url: '/settings/email', signedIn: true, handler: changeEmail },
  { method: 'POST', url: '/settings/password', signedIn: true, handler: changePassword },
]

interface State {
  account?: { name: string; timezone: string; errors: FieldErrors }
  email?: { newEmail: string; errors: FieldErrors }
  passwordErrors?: FieldErrors
}

/** What other credentials do after a change that signs out browsers: they are listed, not ended. */
const otherCredentials = 'API tokens and connected apps keep working: review them under API tokens and Apps.'

/** Where the ways of signing in are managed. */
const securityCard = h`<section class="card" aria-labelledby="security-h">
<h2 id="security-h">Signing in</h2>
<p>Sign in with a passkey, ask for a code from your phone after your password so a stolen password alone cannot open your account, and see every browser signed in to it.</p>
<p class="actions"><a href="/settings/passkeys">Passkeys</a><a href="/settings/two-factor">Two-factor codes</a><a href="/settings/sessions">Where you are signed in</a></p>
</section>`

async function settingsPage(p: PageInput<User>, s: State, status = 200) {
  const v = s.account ?? { name: p.user.name, timezone: p.user.timezone, errors: undefined }
  const pending = await useCases.account.pendingEmailChange(p.ctx, ownerPrincipal(p.user))
  const byMail = passwordReset.canMail(p.ctx)
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
    timeZoneSelect({ name: 'timezone', label: 'Time zone (days of your statistics)', value: v.timezone, errors: v.errors }),
  ],
  submit: 'Save',
})}
${emailCard(p, s, pending, byMail)}
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
${securityCard}
${ssoSettingsCard(p.ctx)}${accountLifecycleCard}`,
    },
    status,
  )
}

/** The e-mail card: a change is confirmed by a link when the service can mail, else at once. */
function emailCard(p: PageInput<User>, s: State, pending: string | undefined | null, byMail: boolean) {
  return formCard({
    id: 'email',
    title: 'E-mail',
    intro: h`<p>You sign in with <strong>${p.user.email}</strong>. ${
      byMail
        ? `To use another address, enter it with your current password: we mail it a link to confirm, and your e-mail changes only when you open it (within ${EMAIL_CHANGE_MINUTES} minutes). Your current address is told, and other browsers signed in to your account are signed out.`
        : 'To use another address, enter it with your current password. Other browsers signed in to your account are signed out.'
    }</p>
${pending ? h`<p class="notice" role="status">Waiting for you to open the link we mailed to <strong>${pending}</strong>. Until then your e-mail stays ${p.user.email}.</p>\n` : ''}`,
    action: '/settings/email',
    csrf: p.csrf(),
    errors: s.email?.errors,
    fields: [
      field({
        name: 'newEmail',
        label: 'New e-mail',
        type: 'email',
        value: s.email?.newEmail ?? '',
        errors: s.email?.errors,
        autocomplete: 'email',
        required: true,
      }),
      field({
        name: 'emailCurrentPassword',
        label: 'Current password',
        type: 'password',
        errors: s.email?.errors,
        autocomplete: 'current-password',
        required: true,
      }),
    ],
    submit: byMail ? 'Send the confirmation link' : 'Change the e-mail',
  })
}

async function saveAccount(p: PageInput<User>) {
  const v = { name: text(p.form, 'name'), timezone: text(p.form, 'timezone') }
  try {
    await useCases.account.update(p.ctx, ownerPrincipal(p.user), { ...v, email: p.user.email })
  } catch (err) {
    return settingsPage(p, { account: { ...v, errors: fieldErrorsOf(err) } }, 422)
  }
  return p.redirect('/settings', 'Your details are saved.')
}

async function changeEmail(p: PageInput<User>) {
  const newEmail = text(p.form, 'newEmail')
  // Each try is a password guess against an argon2 hash: the sign-in limits count it. Whether an
  // e-mail is taken shows here as it does at registration: probes share its limit too.
  await countSignIn(p.ctx, p.req.ip, p.user.email)
  if (newEmail.trim().toLowerCase() !== p.user.email) await countRegistration(p.ctx, p.req.ip, newEmail)
  let outcome: Awaited<ReturnType<typeof useCases.account.requestEmailChange>>
  try {
    outcome = await useCases.account.requestEmailChange(p.ctx, ownerPrincipal(p.user), {
      email: newEmail,
      currentPassword: text(p.form, 'emailCurrentPassword'),
      keepSessionId: p.req.session.sessionId,
      confirmLink: (token) => `${p.ctx.config.publicUrl}/settings/email/confirm?token=${token}`,
    })
  } catch (err) {
    return settingsPage(p, { email: { newEmail, errors: fieldErrorsOf(err, { email: 'newEmail', currentPassword: 'emailCurrentPassword' }) } }, 422)
  }
  if ('pending' in outcome) {
    return p.redirect(
      '/settings',
      `We mailed a link to ${outcome.pending}. Open it within ${EMAIL_CHANGE_MINUTES} minutes to confirm; until then your e-mail stays ${p.user.email}.`,
    )
  }
  // The change is made: this browser continues under a fresh session id, as after a new password.
  await startSignedInSession(p.req, p.user.id, true)
  return p.redirect('/settings', `Your e-mail is now ${outcome.changed.email}. Other browsers signed in to your account were signed out. ${otherCredentials}`)
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
  await startSignedInSession(p.req, p.user.id, true)
  return p.redirect('/settings', `Your password is changed. Other browsers signed in to your account were signed out. ${otherCredentials}`)
}
