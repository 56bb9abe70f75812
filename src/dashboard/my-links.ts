import { plainMessage } from './plain-words.ts'
import { ownerPrincipal } from '../auth/principal.ts'
import { AppError, type FieldErrors } from '../kernel/errors.ts'
import { limits } from '../kernel/limits.ts'
import { publicPageUrl } from '../profiles/profile-resource.ts'
import * as useCases from '../core/use-cases.ts'
import { renderNextSteps } from '../kernel/next-step.ts'
import { dashboardNextSteps } from './page-next-steps.ts'
import { h, raw } from '../slots/shared/html.ts'
import type { User } from '../core/use-cases.ts'
import { field, fieldErrorsOf, formCard } from './form-fields.ts'
import { plural } from './format.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { importPageCard } from './page-transfer-pages.ts'

export const myLinksPages: PageRow[] = [
  { method: 'GET', url: '/my-links', signedIn: true, handler: async (p) => listPage(p, {}) },
  { method: 'POST', url: '/my-links', signedIn: true, handler: create },
  { method: 'GET', url: '/my-links/check-login', signedIn: true, handler: checkLogin },
]

export const LOGIN_HINT = `${limits.login.minLength} to ${limits.login.maxLength} letters, digits, dots or underscores.`

async function listPage(p: PageInput<User>, s: { login?: string; errors?: FieldErrors }, status = 200) {
  const principal = ownerPrincipal(p.user)
  const profiles = await useCases.profiles.list(p.ctx, principal)
  const stats = profiles.length ? (await useCases.analytics.forAccount(p.ctx, principal, { period: 'last28', compare: false })).data.profiles : []
  const byId = new Map(stats.map((r) => [r.profileId, r]))
  return p.render(
    {
      title: 'My links',
      active: 'my-links',
      body: h`<h1>My links</h1>
<section class="card" aria-labelledby="pages-h">
<h2 id="pages-h">Your pages (${profiles.length} of ${limits.profilesPerUser})</h2>
${
  profiles.length
    ? h`<ul class="pages">
${profiles.map((profile) => {
  const r = byId.get(profile.id)
  const url = profile.computed.url
  return h`<li><a href="/my-links/${profile.id}"><strong>${profile.title || profile.login}</strong></a>${profile.computed.isMain ? h` <span class="muted">(main page)</span>` : ''} · <a href="/my-links/${profile.id}/editor">Edit<span class="sr-only"> ${profile.title || profile.login}</span></a><br>
<a href="${url}">${url}</a>
<p class="stats"><span>${plural(r?.views ?? 0, 'view')}</span><span>${plural(r?.clicks ?? 0, 'click')}</span><span>last 28 days</span></p></li>
`
})}</ul>`
    : h`<p class="muted">You have no page yet. Create your first one below.</p>`
}${profiles.length ? h`<p><a href="/my-links/statistics">Statistics of all your pages</a></p>` : ''}
</section>
${formCard({
  id: 'create',
  title: 'Create a page',
  action: '/my-links',
  csrf: p.csrf(),
  errors: s.errors,
  fields: [
    field({
      name: 'login',
      label: `Address (your page will be at ${p.ctx.config.publicUrl}/yourname)`,
      value: s.login ?? '',
      errors: s.errors,
      hint: LOGIN_HINT,
      required: true,
      status: true,
      attrs: raw(
        `maxlength="${limits.login.maxLength}" autocomplete="off" spellcheck="false" data-login-check="/my-links/check-login" data-status="f-login-status"`,
      ),
    }),
  ],
  submit: 'Create the page',
})}
${importPageCard(p.csrf())}`,
    },
    status,
  )
}

async function create(p: PageInput<User>) {
  const login = text(p.form, 'login').trim()
  // The reason in words first (the service's own message speaks to API clients).
  const principal = ownerPrincipal(p.user)
  const verdict = await useCases.profiles.checkLogin(p.ctx, principal, { login })
  if (!verdict.available) return listPage(p, { login, errors: { login: [plainMessage(verdict.message)] } }, 422)
  let id: number
  try {
    id = (await useCases.profiles.create(p.ctx, principal, { login })).id
  } catch (err) {
    if (err instanceof AppError && err.code === 'limit_reached')
      return listPage(p, { login, errors: { login: [renderNextSteps(err.message, dashboardNextSteps)] } }, 409)
    return listPage(p, { login, errors: fieldErrorsOf(err) }, 422)
  }
  return p.redirect(`/my-links/${id}`, `Your page is ready at ${publicPageUrl(p.ctx.config, login)}.`)
}

/** The live login check of the forms: the API's GET /profiles/check-login, for the session. */
async function checkLogin(p: PageInput<User>) {
  const login = (p.query.login ?? '').slice(0, 200)
  // Another account's page as `profile` is a 404, as in the API.
  const verdict = await useCases.profiles.checkLogin(p.ctx, ownerPrincipal(p.user), { login, profile: p.query.profile || undefined })
  // The script writes the message under the field: in the dashboard's words.
  return p.reply.header('cache-control', 'no-store').send({ ...verdict, message: verdict.message && plainMessage(verdict.message) })
}
