import { ownerPrincipal } from '../auth/principal.ts'
import { account } from '../core/use-cases.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import type { OwnerConfirmation, OwnerProof, User } from '../core/use-cases.ts'
import { field, fieldErrorsOf, formCard } from './form-fields.ts'
import { csrfField, sendPage } from './layout.ts'
import { CONFIRM_PASSKEY_OPTIONS, confirmAtProvider, proofOf, providerFormActions, takeProviderProof } from './owner-proof-forms.ts'
import type { PageInput, PageRow } from './page-routes.ts'
import { passkeyScript } from './passkey-forms.ts'
import { factorWords, secondStepChoices, stepStateOf } from './second-step.ts'
import { sessionCookieName } from './scope.ts'
import { countSignIn } from './sign-in-limits.ts'

// Taking one's data away, and leaving: an export of everything, and deletion of everything.

export const accountLifecyclePages: PageRow[] = [
  { method: 'GET', url: '/settings/export', signedIn: true, handler: exportData },
  { method: 'GET', url: '/settings/delete', signedIn: true, handler: async (p) => deletePage(p, {}) },
  { method: 'POST', url: '/settings/delete', signedIn: true, handler: remove },
  // Back from the single sign-on provider, which has just confirmed the owner (owner-proof-forms.ts).
  { method: 'GET', url: '/settings/delete/single-sign-on', signedIn: true, handler: removeConfirmedByProvider },
]

const DELETE = 'Delete my account forever'

/** The card on the account page that leads here. */
export const accountLifecycleCard = h`<section class="card" aria-labelledby="yours-h">
<h2 id="yours-h">Your data</h2>
<p>Download everything of your account as a zip: your details, pages and their blocks, forms and what visitors sent through them, and your uploaded files.</p>
<p class="actions"><a class="button secondary" href="/settings/export" download>Export my data</a><a href="/settings/delete">Delete my account…</a></p>
</section>`

async function exportData(p: PageInput<User>) {
  const zip = await account.export(p.ctx, ownerPrincipal(p.user))
  const day = new Date().toISOString().slice(0, 10)
  return p.reply
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', `attachment; filename="slotline-export-${day}.zip"`)
    .type('application/zip')
    .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength))
}

async function deletePage(p: PageInput<User>, s: { errors?: FieldErrors }, status = 200) {
  const way = await account.confirmation(p.ctx, ownerPrincipal(p.user))
  return p.render(
    {
      title: 'Delete my account',
      active: 'settings',
      own: way.by === 'second-factor' && way.factors.passkeys ? passkeyScript : undefined,
      // Without a password, the form may lead to the single sign-on provider.
      formActions: await providerFormActions(p.ctx, way),
      body: h`<p><a href="/settings">← Account</a></p>
<h1>Delete my account</h1>
${deleteCard(p, way, s.errors ?? {})}`,
    },
    status,
  )
}

const WARNING = h`<p>This cannot be undone. Your pages and their addresses, blocks, statistics, form submissions, uploaded files, API tokens, connected apps and every signed-in browser are deleted at once. <a href="/settings/export">Export your data</a> first if you want to keep it.</p>\n`

/** The confirmation the account gives: its password, else its second step, else its provider. */
function deleteCard(p: PageInput<User>, way: OwnerConfirmation, errors: FieldErrors): SafeHtml {
  if (way.by === 'password') {
    return formCard({
      id: 'delete',
      title: 'Delete everything, for good',
      intro: WARNING,
      action: '/settings/delete',
      csrf: p.csrf(),
      errors: Object.keys(errors).length ? errors : undefined,
      fields: [
        field({
          name: 'currentPassword',
          label: 'Your current password, to confirm',
          type: 'password',
          errors,
          autocomplete: 'current-password',
          required: true,
        }),
      ],
      submit: DELETE,
      danger: true,
    })
  }
  const unconfirmed = [...(errors.singleSignOn ?? []), ...(errors.confirmation ?? [])]
  const problem = unconfirmed.length ? h`<p class="notice bad" role="alert">${unconfirmed.join(' ')} Nothing was deleted.</p>\n` : ''
  const how =
    way.by === 'second-factor'
      ? h`<p>Your account has no password: confirm it is you with ${factorWords(way.factors)}.</p>
${secondStepChoices(p, way.factors, {
  passkey: { action: '/settings/delete', options: CONFIRM_PASSKEY_OPTIONS, submit: `${DELETE} with your passkey` },
  code: { action: '/settings/delete', submit: DELETE },
  state: stepStateOf(errors),
  danger: true,
})}`
      : way.by === 'single-sign-on'
        ? h`<p>Your account has no password: confirm it is you by signing in again at your single sign-on provider. You come straight back, and your account is deleted then.</p>
<form method="post" action="/settings/delete">
${csrfField(p.csrf())}
<button type="submit" class="danger">Sign in again and delete my account</button>
</form>`
        : h`<p>Your account has no password, passkey or two-factor codes to confirm this with: set a password first, with “Forgot your password?” on the sign-in page.</p>`
  return h`<section class="card danger-zone" aria-labelledby="delete-h">
<h2 id="delete-h">Delete everything, for good</h2>
${WARNING}${problem}${how}
</section>`
}

async function remove(p: PageInput<User>) {
  const way = await account.confirmation(p.ctx, ownerPrincipal(p.user))
  if (way.by === 'single-sign-on') return confirmAtProvider(p, { action: 'delete', back: '/settings/delete' }, '/settings/delete/single-sign-on')
  return removeWith(p, proofOf(p, way, 'currentPassword'))
}

async function removeConfirmedByProvider(p: PageInput<User>) {
  const confirmed = takeProviderProof(p, 'delete')
  if (!confirmed) return p.redirect('/settings/delete', 'Nothing was deleted: confirm it is you at your single sign-on provider first.', true)
  return removeWith(p, confirmed.proof)
}

async function removeWith(p: PageInput<User>, proof: OwnerProof | undefined) {
  // Each try is a password guess against an argon2 hash (or a code, or a passkey's answer): the
  // sign-in limits count it.
  await countSignIn(p.ctx, p.req.ip, p.user.email)
  try {
    await account.delete(p.ctx, ownerPrincipal(p.user), { proof })
  } catch (err) {
    return deletePage(p, { errors: fieldErrorsOf(err) }, 422)
  }
  // SQL sessions went with the account; Redis keeps its own, ended here. Then this browser's.
  await p.ctx.sessions.endAllFor(p.user.id)
  await p.req.session.destroy()
  p.reply.clearCookie(sessionCookieName(p.ctx), { path: '/' })
  // The page is sent without the user: nobody is signed in any more.
  return sendPage(p.reply, {
    title: 'Account deleted',
    narrow: true,
    body: h`<h1>Your account is deleted</h1><p>Everything of it is gone. Thank you for having used Slotline.</p><p><a href="/">Home</a></p>`,
  })
}
