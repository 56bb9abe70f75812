import { ownerPrincipal } from '../auth/principal.ts'
import { EMAIL_CHANGE_MINUTES, type OwnerConfirmation, type OwnerProof, passwordReset, type SecondFactors, type User } from '../core/use-cases.ts'
import { accountLifecycleCard } from './account-lifecycle.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { h } from '../slots/shared/html.ts'
import * as useCases from '../core/use-cases.ts'
import { field, fieldErrorsOf, formCard, timeZoneSelect } from './form-fields.ts'
import { CONFIRM_PASSKEY_OPTIONS, confirmAtProvider, proofOf, providerFormActions, takeProviderProof } from './owner-proof-forms.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { passkeyScript } from './passkey-forms.ts'
import { factorWords, secondStepChoices, type StepState, stepStateOf } from './second-step.ts'
import { countRegistration, countSignIn } from './sign-in-limits.ts'
import { startSignedInSession } from './signed-in-session.ts'
import { ssoSettingsCard } from './sso-pages.ts'

export const accountSettingsPages: PageRow[] = [
  { method: 'GET', url: '/settings', signedIn: true, handler: async (p) => settingsPage(p, {}) },
  { method: 'POST', url: '/settings', signedIn: true, handler: saveAccount },
  { method: 'POST', url: '/settings/email', signedIn: true, handler: changeEmail },
  // Back from the single sign-on provider, which has just confirmed the owner (owner-proof-forms.ts).
  { method: 'GET', url: '/settings/email/single-sign-on', signedIn: true, handler: changeEmailConfirmedByProvider },
  { method: 'POST', url: '/settings/password', signedIn: true, handler: changePassword },
]

interface State {
  account?: { name: string; timezone: string; errors: FieldErrors }
  email?: { newEmail: string; errors: FieldErrors }
  passwordErrors?: FieldErrors
}

/** What the account page's e-mail form asks for, by how the account confirms a change. */
const EMAIL_CONFIRMED_BY: Record<OwnerConfirmation['by'], string> = {
  password: 'enter it with your current password',
  'second-factor': 'enter it, then confirm it is you with your passkey or a code from your authenticator app',
  'single-sign-on': 'enter it, then confirm it is you by signing in again at your single sign-on provider (you come straight back here)',
  none: '',
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
  const way = await useCases.account.confirmation(p.ctx, ownerPrincipal(p.user))
  return p.render(
    {
      title: 'Account',
      active: 'settings',
      // Without a password, the e-mail form may lead to the single sign-on provider.
      formActions: await providerFormActions(p.ctx, way),
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
${emailCard(p, s, pending, byMail, way)}
${passwordCard(p, s, way)}
</div>
${securityCard}
${ssoSettingsCard(p.ctx)}${accountLifecycleCard}`,
    },
    status,
  )
}

/** The password card: a change given the current one; an account without one is told how to get one. */
function passwordCard(p: PageInput<User>, s: State, way: OwnerConfirmation) {
  if (way.by !== 'password') {
    return h`<section class="card" aria-labelledby="password-h">
<h2 id="password-h">Password</h2>
<p>Your account has no password: you sign in ${way.by === 'single-sign-on' ? 'through your single sign-on provider' : 'with a passkey or single sign-on'}. To have one, use “Forgot your password?” on the sign-in page, or ask the operator of this service.</p>
</section>`
  }
  return formCard({
    id: 'password',
    title: 'Password',
    action: '/settings/password',
    csrf: p.csrf(),
    errors: s.passwordErrors,
    fields: [
      field({
        name: 'currentPassword',
        label: 'Current password',
        type: 'password',
        errors: s.passwordErrors,
        autocomplete: 'current-password',
        required: true,
      }),
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
  })
}

/**
 * The e-mail card: a change is confirmed by the owner (how depends on the account), then by a
 * link when the service can mail, else made at once.
 */
function emailCard(p: PageInput<User>, s: State, pending: string | undefined | null, byMail: boolean, way: OwnerConfirmation) {
  const after = byMail
    ? `We mail the new address a link to confirm, and your e-mail changes only when you open it (within ${EMAIL_CHANGE_MINUTES} minutes). Your current address is told, and other browsers signed in to your account are signed out.`
    : 'Other browsers signed in to your account are signed out.'
  const waiting = pending
    ? h`<p class="notice" role="status">Waiting for you to open the link we mailed to <strong>${pending}</strong>. Until then your e-mail stays ${p.user.email}.</p>\n`
    : ''
  const errors = s.email?.errors
  // What went wrong with the confirmation itself (the provider's word) has no field of its own.
  const unconfirmed = [...(errors?.singleSignOn ?? []), ...(errors?.confirmation ?? [])]
  const problem = unconfirmed.length ? h`<p class="notice bad" role="alert">${unconfirmed.join(' ')} Your e-mail has not changed.</p>\n` : ''
  if (way.by === 'none') {
    return h`<section class="card" aria-labelledby="email-h">
<h2 id="email-h">E-mail</h2>
<p>You sign in with <strong>${p.user.email}</strong>. Your account has no password, passkey or two-factor codes to confirm a new address with: set a password first, with “Forgot your password?” on the sign-in page.</p>
${waiting}</section>`
  }
  const fields = [
    field({ name: 'newEmail', label: 'New e-mail', type: 'email', value: s.email?.newEmail ?? '', errors, autocomplete: 'email', required: true }),
  ]
  if (way.by === 'password') {
    fields.push(field({ name: 'emailCurrentPassword', label: 'Current password', type: 'password', errors, autocomplete: 'current-password', required: true }))
  }
  return formCard({
    id: 'email',
    title: 'E-mail',
    intro: h`<p>You sign in with <strong>${p.user.email}</strong>. To use another address, ${EMAIL_CONFIRMED_BY[way.by]}. ${after}</p>
${waiting}${problem}`,
    action: '/settings/email',
    csrf: p.csrf(),
    errors: unconfirmed.length ? undefined : errors,
    fields,
    submit: way.by !== 'password' ? 'Continue' : byMail ? 'Send the confirmation link' : 'Change the e-mail',
  })
}

/** Confirming a new e-mail with the account's second step (an account without a password). */
function confirmEmailPage(p: PageInput<User>, factors: SecondFactors, newEmail: string, state: StepState, status = 200) {
  return p.render(
    {
      title: 'Confirm it is you',
      active: 'settings',
      own: factors.passkeys ? passkeyScript : undefined,
      body: h`<p><a href="/settings">← Account</a></p>
<h1>Confirm it is you</h1>
<p>To use <strong>${newEmail}</strong> for your account, confirm it is you with ${factorWords(factors)}. Your e-mail changes only then.</p>
${secondStepChoices(p, factors, {
  passkey: { action: '/settings/email', options: CONFIRM_PASSKEY_OPTIONS, submit: 'Confirm with your passkey' },
  code: { action: '/settings/email', submit: 'Confirm the new e-mail' },
  fields: [h`<input type="hidden" name="newEmail" value="${newEmail}">`],
  state,
})}`,
    },
    status,
  )
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
  const way = await useCases.account.confirmation(p.ctx, ownerPrincipal(p.user))
  return requestEmailChange(p, way, text(p.form, 'newEmail'), proofOf(p, way, 'emailCurrentPassword'))
}

async function changeEmailConfirmedByProvider(p: PageInput<User>) {
  const confirmed = takeProviderProof(p, 'email')
  if (!confirmed?.newEmail) return p.redirect('/settings', 'Your e-mail has not changed: confirm it is you at your single sign-on provider first.', true)
  return requestEmailChange(p, { by: 'single-sign-on' }, confirmed.newEmail, confirmed.proof)
}

/**
 * Asks the core for the change with what the owner gave. Without it, an account with no password
 * is asked for its second step, or sent to its provider, once the address itself is right.
 */
async function requestEmailChange(p: PageInput<User>, way: OwnerConfirmation, newEmail: string, proof: OwnerProof | undefined) {
  // Each try is a password guess against an argon2 hash (or a code, or a passkey's answer): the
  // sign-in limits count it. Whether an e-mail is taken shows here as it does at registration:
  // probes share its limit too.
  await countSignIn(p.ctx, p.req.ip, p.user.email)
  if (newEmail.trim().toLowerCase() !== p.user.email) await countRegistration(p.ctx, p.req.ip, newEmail)
  let outcome: Awaited<ReturnType<typeof useCases.account.requestEmailChange>>
  try {
    outcome = await useCases.account.requestEmailChange(p.ctx, ownerPrincipal(p.user), {
      email: newEmail,
      proof,
      keepSessionId: p.req.session.sessionId,
      confirmLink: (token) => `${p.ctx.config.publicUrl}/settings/email/confirm?token=${token}`,
    })
  } catch (err) {
    const errors = fieldErrorsOf(err, { email: 'newEmail', currentPassword: 'emailCurrentPassword' })
    const asked = !proof && Object.keys(errors).join() === 'confirmation'
    if (asked && way.by === 'single-sign-on') return confirmAtProvider(p, { action: 'email', newEmail, back: '/settings' }, '/settings/email/single-sign-on')
    const stepRefused = errors.code || errors.credential
    if (way.by === 'second-factor' && (asked || stepRefused)) {
      return confirmEmailPage(p, way.factors, newEmail, asked ? {} : stepStateOf(errors), asked ? 200 : 422)
    }
    return settingsPage(p, { email: { newEmail, errors } }, 422)
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
