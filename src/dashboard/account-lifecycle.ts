import { ownerPrincipal } from '../auth/principal.ts'
import { account } from '../core/use-cases.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { h } from '../slots/shared/html.ts'
import type { User } from '../core/use-cases.ts'
import { field, fieldErrorsOf, formCard } from './form-fields.ts'
import { sendPage } from './layout.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { sessionCookieName } from './scope.ts'
import { countSignIn } from './sign-in-limits.ts'

// Taking one's data away, and leaving: an export of everything, and deletion of everything.

export const accountLifecyclePages: PageRow[] = [
  { method: 'GET', url: '/settings/export', signedIn: true, handler: exportData },
  { method: 'GET', url: '/settings/delete', signedIn: true, handler: async (p) => deletePage(p, {}) },
  { method: 'POST', url: '/settings/delete', signedIn: true, handler: remove },
]

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

function deletePage(p: PageInput<User>, s: { errors?: FieldErrors }, status = 200) {
  return p.render(
    {
      title: 'Delete my account',
      active: 'settings',
      body: h`<p><a href="/settings">← Account</a></p>
<h1>Delete my account</h1>
${formCard({
  id: 'delete',
  title: 'Delete everything, for good',
  intro: h`<p>This cannot be undone. Your pages and their addresses, blocks, statistics, form submissions, uploaded files, API tokens, connected apps and every signed-in browser are deleted at once. <a href="/settings/export">Export your data</a> first if you want to keep it.</p>\n`,
  action: '/settings/delete',
  csrf: p.csrf(),
  errors: s.errors,
  fields: [
    field({
      name: 'currentPassword',
      label: 'Your current password, to confirm',
      type: 'password',
      errors: s.errors,
      autocomplete: 'current-password',
      required: true,
    }),
  ],
  submit: 'Delete my account forever',
  danger: true,
})}`,
    },
    status,
  )
}

async function remove(p: PageInput<User>) {
  // Each try is a password guess against an argon2 hash: the sign-in limits count it.
  await countSignIn(p.ctx, p.req.ip, p.user.email)
  try {
    await account.delete(p.ctx, ownerPrincipal(p.user), { currentPassword: text(p.form, 'currentPassword') })
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
