import { ownerPrincipal } from '../auth/principal.ts'
import * as useCases from '../core/use-cases.ts'
import type { PasskeyView, User } from '../core/use-cases.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import { field, fieldErrorsOf, formCard } from './form-fields.ts'
import { when } from './format.ts'
import { csrfField } from './layout.ts'
import { addSignInRows, confirmedToAdd, confirmToAddCard, providerFormActions } from './owner-proof-forms.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { passkeyForm, passkeyScript, sendOptions } from './passkey-forms.ts'
import { countSignIn } from './sign-in-limits.ts'
import { startSignedInSession } from './signed-in-session.ts'

export const passkeyPages: PageRow[] = [
  { method: 'GET', url: '/settings/passkeys', signedIn: true, handler: async (p) => passkeysPage(p, {}) },
  { method: 'POST', url: '/settings/passkeys/options', signedIn: true, handler: creationOptions },
  { method: 'POST', url: '/settings/passkeys/add', signedIn: true, handler: add },
  { method: 'POST', url: '/settings/passkeys/:id/rename', signedIn: true, handler: rename },
  { method: 'POST', url: '/settings/passkeys/:id/remove', signedIn: true, handler: remove },
  { method: 'POST', url: '/settings/passkeys/password', signedIn: true, handler: dropPassword },
  // The owner confirms first (owner-proof-forms.ts): a new passkey could confirm anything after.
  ...addSignInRows({ base: '/settings/passkeys', show: (p, errors) => passkeysPage(p, { ownerErrors: errors }, 422) }),
]

interface State {
  ownerErrors?: FieldErrors
  addErrors?: FieldErrors
  listProblem?: string
  passwordErrors?: FieldErrors
}

const TITLE = 'Passkeys'

async function passkeysPage(p: PageInput<User>, s: State, status = 200) {
  const principal = ownerPrincipal(p.user)
  const passkeys = await useCases.passkeys.list(p.ctx, principal)
  const password = await useCases.passkeys.passwordStatus(p.ctx, principal)
  const way = await useCases.account.confirmation(p.ctx, principal)
  const adding = (await confirmedToAdd(p))
    ? addCard(p, s)
    : confirmToAddCard(p, way, { base: '/settings/passkeys', what: 'a passkey', errors: s.ownerErrors ?? {}, problem: s.addErrors?.credential?.join(' ') })
  return p.render(
    {
      title: TITLE,
      active: 'settings',
      own: passkeyScript,
      // Without a password, confirming may lead to the single sign-on provider.
      formActions: await providerFormActions(p.ctx, way),
      body: h`<p><a href="/settings">← Account</a></p>
<h1>${TITLE}</h1>
<p>A passkey signs you in with your fingerprint, your face or your device's PIN instead of typing a password. It stays on your phone, computer or security key, and works only on this site, so it cannot be phished.</p>
${listCard(p, passkeys, s)}
${adding}
${passwordCard(p, password, passkeys.length, s)}`,
    },
    status,
  )
}

function passkeyRow(p: PageInput<User>, k: PasskeyView): SafeHtml {
  const id = `rename-${k.id}`
  return h`<tr><td><strong>${k.name}</strong></td><td data-label="Added">${when(p.user, k.createdAt)}</td><td data-label="Last used">${when(p.user, k.lastUsedAt)}</td>
<td><form method="post" action="/settings/passkeys/${String(k.id)}/rename" class="inline-form">${csrfField(p.csrf())}<label class="sr-only" for="${id}">New name for ${k.name}</label><input id="${id}" name="name" type="text" value="${k.name}" maxlength="60" required><button type="submit" class="secondary" aria-label="Rename ${k.name}">Rename</button></form>
<form method="post" action="/settings/passkeys/${String(k.id)}/remove">${csrfField(p.csrf())}<button type="submit" class="danger" aria-label="Remove ${k.name}">Remove</button></form></td></tr>
`
}

function listCard(p: PageInput<User>, passkeys: PasskeyView[], s: State): SafeHtml {
  const problem = s.listProblem ? h`<p class="notice bad" role="alert">${s.listProblem}</p>\n` : ''
  if (!passkeys.length)
    return h`<section class="card" aria-labelledby="passkeys-h">\n<h2 id="passkeys-h">Your passkeys</h2>\n${problem}<p>You have no passkey yet.</p>\n</section>`
  return h`<section class="card" aria-labelledby="passkeys-h">
<h2 id="passkeys-h">Your passkeys</h2>
${problem}<p>Removing a passkey signs out every other browser signed in to your account.</p>
<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">Name</th><th scope="col">Added</th><th scope="col">Last used</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>
${passkeys.map((k) => passkeyRow(p, k))}</tbody>
</table></div>
</section>`
}

function addCard(p: PageInput<User>, s: State): SafeHtml {
  const problem = [...(s.addErrors?.credential ?? [])].join(' ') || undefined
  return h`<section class="card" aria-labelledby="add-passkey-h">
<h2 id="add-passkey-h">Add a passkey</h2>
<p>Your browser asks your device to make one. Other browsers signed in to your account are then signed out.</p>
${passkeyForm({
  kind: 'create',
  action: '/settings/passkeys/add',
  options: '/settings/passkeys/options',
  csrf: p.csrf(),
  submit: 'Add a passkey',
  problem,
  fields: [
    field({
      name: 'name',
      label: 'Name of this passkey',
      errors: s.addErrors,
      hint: 'So you can tell them apart, such as “Phone” or “Work laptop”.',
      attrs: h`maxlength="60"`,
    }),
  ],
})}
</section>`
}

function passwordCard(p: PageInput<User>, password: { hasPassword: boolean; canDrop: boolean }, count: number, s: State): SafeHtml {
  if (!password.hasPassword) {
    return h`<section class="card" aria-labelledby="password-h">
<h2 id="password-h">No password</h2>
<p>Your account has no password: you sign in with a passkey${p.ctx.config.singleSignOn ? ' or single sign-on' : ''}. To have a password, use “Forgot your password?” on the sign-in page, or ask the operator of this service.</p>
</section>`
  }
  if (!password.canDrop) {
    return h`<section class="card" aria-labelledby="password-h">
<h2 id="password-h">Sign in without a password</h2>
<p>Once you have a passkey${count ? ' (you do)' : ''} and recovery codes, you can remove your password and sign in with a passkey only. Recovery codes come with <a href="/settings/two-factor">two-factor codes</a>.</p>
</section>`
  }
  return formCard({
    id: 'password',
    title: 'Sign in without a password',
    intro: h`<p>After this, your account has no password: signing in with your e-mail and a password stops working, and you sign in with a passkey only. Keep your recovery codes. Other browsers signed in to your account are signed out.</p>`,
    action: '/settings/passkeys/password',
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
    ],
    submit: 'Remove my password',
    danger: true,
  })
}

async function creationOptions(p: PageInput<User>) {
  return sendOptions(p, () => useCases.passkeys.registrationOptions(p.ctx, ownerPrincipal(p.user), { sessionId: p.req.session.sessionId }))
}

async function add(p: PageInput<User>) {
  try {
    await useCases.passkeys.register(p.ctx, ownerPrincipal(p.user), {
      sessionId: p.req.session.sessionId,
      credential: text(p.form, 'credential'),
      name: text(p.form, 'name'),
      keepSessionId: p.req.session.sessionId,
    })
  } catch (err) {
    return passkeysPage(p, { addErrors: fieldErrorsOf(err) }, 422)
  }
  await startSignedInSession(p.req, p.user.id, true)
  return p.redirect('/settings/passkeys', 'Passkey added. Other browsers signed in to your account were signed out.')
}

const idOf = (p: PageInput<User>) => (/^\d{1,9}$/.test(p.params.id) ? Number(p.params.id) : 0)

async function rename(p: PageInput<User>) {
  try {
    await useCases.passkeys.rename(p.ctx, ownerPrincipal(p.user), { id: idOf(p), name: text(p.form, 'name') })
  } catch (err) {
    return passkeysPage(p, { listProblem: Object.values(fieldErrorsOf(err)).flat().join(' ') }, 422)
  }
  return p.redirect('/settings/passkeys', 'Passkey renamed.')
}

async function remove(p: PageInput<User>) {
  try {
    await useCases.passkeys.remove(p.ctx, ownerPrincipal(p.user), { id: idOf(p), keepSessionId: p.req.session.sessionId })
  } catch (err) {
    return passkeysPage(p, { listProblem: Object.values(fieldErrorsOf(err)).flat().join(' ') }, 422)
  }
  await startSignedInSession(p.req, p.user.id, true)
  return p.redirect('/settings/passkeys', 'Passkey removed. Other browsers signed in to your account were signed out.')
}

async function dropPassword(p: PageInput<User>) {
  await countSignIn(p.ctx, p.req.ip, p.user.email)
  try {
    await useCases.passkeys.dropPassword(p.ctx, ownerPrincipal(p.user), {
      currentPassword: text(p.form, 'currentPassword'),
      keepSessionId: p.req.session.sessionId,
    })
  } catch (err) {
    return passkeysPage(p, { passwordErrors: fieldErrorsOf(err) }, 422)
  }
  await startSignedInSession(p.req, p.user.id, true)
  return p.redirect(
    '/settings/passkeys',
    'Your password is removed: you now sign in with a passkey only. Other browsers signed in to your account were signed out.',
  )
}
