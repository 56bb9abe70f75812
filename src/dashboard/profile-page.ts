import { plainMessage } from './plain-words.ts'
import { ownerPrincipal } from '../auth/principal.ts'
import type { FieldErrors } from '../kernel/errors.ts'
import { limits } from '../kernel/limits.ts'
import { type QrFormat, qrCodes } from '../rendering/qr-code.ts'
import { publicPageUrl } from '../profiles/profile-resource.ts'
import { type ProfileResource, UpdateProfileRequest } from '../profiles/profile-schemas.ts'
import { compileBody, validationError } from '../kernel/validation.ts'
import * as useCases from '../core/use-cases.ts'
import { h, raw } from '../slots/shared/html.ts'
import type { User } from '../core/use-cases.ts'
import { topBlocksChart, viewsAndClicksChart } from './chart.ts'
import { field, fieldErrorsOf, formCard } from './form-fields.ts'
import { plural } from './format.ts'
import { LOGIN_HINT } from './my-links.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { exportPageCard } from './page-transfer-pages.ts'
import { themePickerSection } from './theme-picker.ts'
import { parseId } from '../kernel/ids.ts'

const qrCode = qrCodes()

export const profilePages: PageRow[] = [
  { method: 'GET', url: '/my-links/:profileId', signedIn: true, handler: async (p) => profilePage(p, await ownProfile(p), {}) },
  { method: 'GET', url: '/my-links/:profileId/qr.svg', signedIn: true, handler: (p) => qr(p, 'svg') },
  { method: 'GET', url: '/my-links/:profileId/qr.png', signedIn: true, handler: (p) => qr(p, 'png') },
  { method: 'POST', url: '/my-links/:profileId/login', signedIn: true, handler: changeLogin },
  { method: 'POST', url: '/my-links/:profileId/delete', signedIn: true, handler: remove },
  { method: 'POST', url: '/my-links/:profileId/search', signedIn: true, handler: changeSearch },
]

/** The page named in the path (always by id), if it is this user's; anything else is a 404 page. */
async function ownProfile(p: PageInput<User>): Promise<ProfileResource> {
  const id = parseId(p.params.profileId) ?? 0
  return useCases.profiles.get(p.ctx, ownerPrincipal(p.user), id)
}

interface State {
  login?: { value: string; understood: boolean; errors: FieldErrors }
  deletion?: { errors: FieldErrors }
  search?: { values: SearchValues; errors: FieldErrors }
}

interface SearchValues {
  seoTitle: string
  seoDescription: string
  seoSubject: string
}

async function profilePage(p: PageInput<User>, profile: ProfileResource, s: State, status = 200) {
  const query = { period: 'last28', include: 'timeline', compare: false } as const
  const report = (await useCases.analytics.forPage(p.ctx, ownerPrincipal(p.user), profile.id, query)).data
  const points = (report.timeline ?? []).map((d) => ({ date: d.date, views: d.views, clicks: d.clicks }))
  const url = publicPageUrl(p.ctx.config, profile.login)
  // The page's own domain while it works: where visitors and the QR code are sent.
  const address = await useCases.domains.pageAddress(p.ctx, profile)
  const base = `/my-links/${profile.id}`
  const name = profile.title || profile.login
  return p.render(
    {
      title: name,
      active: 'my-links',
      body: h`<p><a href="/my-links">← My links</a></p>
<h1>${name}</h1>
<p><a class="button" href="${base}/editor">Edit the page</a></p>
<p>Public address: <a href="${address}">${address}</a>${profile.computed.status ? '' : h` <span class="muted">(not published)</span>`}</p>
<p class="actions"><a href="${base}/statistics">Statistics</a><a href="${base}/leads">Form submissions</a><a href="${base}/domain">Your own domain</a></p>
<div class="grid two">
<section class="card" aria-labelledby="stats-h">
<h2 id="stats-h">Last 28 days</h2>
<p class="stats"><span>${plural(report.totals.views, 'view')}</span><span>${plural(report.totals.clicks, 'click')}</span></p>
${viewsAndClicksChart(points, `chart-${profile.id}`)}
</section>
<section class="card" aria-labelledby="top-h">
<h2 id="top-h">Most clicked blocks</h2>
${topBlocksChart(report.blocks)}
</section>
<section class="card" aria-labelledby="qr-h">
<h2 id="qr-h">QR code</h2>
<img class="qr" src="${base}/qr.svg" width="160" height="160" alt="QR code for ${address}">
<p class="actions"><a class="button secondary" href="${base}/qr.png?download=1" download="${profile.login}-qr.png">Download PNG</a><a class="button secondary" href="${base}/qr.svg?download=1" download="${profile.login}-qr.svg">Download SVG</a></p>
</section>
${formCard({
  id: 'login',
  title: 'Change the address',
  intro: h`<p><strong>The old address stops working at once.</strong> There is no redirect: links you shared, printed QR codes and NFC tags that point to ${url} will lead nowhere.</p>\n`,
  action: `${base}/login`,
  csrf: p.csrf(),
  errors: s.login?.errors,
  fields: [
    field({
      name: 'login',
      label: 'New address',
      value: s.login?.value ?? profile.login,
      errors: s.login?.errors,
      hint: LOGIN_HINT,
      required: true,
      status: true,
      attrs: raw(
        `maxlength="${limits.login.maxLength}" autocomplete="off" spellcheck="false" data-login-check="/my-links/check-login" data-profile="${profile.id}" data-status="f-login-status"`,
      ),
    }),
    h`<div class="field"><label><input type="checkbox" name="understood" value="yes"${s.login?.understood ? raw(' checked') : ''}${s.login?.errors.understood ? raw(' aria-invalid="true" aria-describedby="f-understood-error"') : ''}> I understand that the old address, its links and QR codes stop working.</label>
${s.login?.errors.understood ? h`<p class="error" id="f-understood-error">${s.login.errors.understood.join(' ')}</p>` : ''}</div>`,
  ],
  submit: 'Change the address',
})}
</div>
${searchCard(p, profile, s)}
${themePickerSection(profile, p.csrf())}
${exportPageCard(profile.id)}
${deletePageCard(p, profile, s, url)}`,
    },
    status,
  )
}

const checkUpdate = compileBody(UpdateProfileRequest)

/** What search results and link previews show of the page, and who it is about. */
function searchCard(p: PageInput<User>, profile: ProfileResource, s: State) {
  const v = s.search?.values ?? { seoTitle: profile.seoTitle ?? '', seoDescription: profile.seoDescription ?? '', seoSubject: profile.seoSubject }
  const errors = s.search?.errors
  const subject = (value: string, label: string) =>
    h`<label><input type="radio" name="seoSubject" value="${value}"${v.seoSubject === value ? raw(' checked') : ''}> ${label}</label>`
  return formCard({
    id: 'search',
    title: 'In search results',
    intro: h`<p>What search engines and link previews show of your page. Leave a box empty to use the page’s name and bio.</p>\n`,
    action: `/my-links/${profile.id}/search`,
    csrf: p.csrf(),
    errors,
    fields: [
      field({
        name: 'seoTitle',
        label: 'Title in search results',
        value: v.seoTitle,
        errors,
        hint: `Up to ${limits.seoTitleLength} characters.`,
        attrs: raw(`maxlength="${limits.seoTitleLength}"`),
      }),
      field({
        name: 'seoDescription',
        label: 'Description in search results',
        value: v.seoDescription,
        errors,
        hint: `Up to ${limits.seoDescriptionLength} characters.`,
        attrs: raw(`maxlength="${limits.seoDescriptionLength}"`),
      }),
      h`<fieldset class="field"><legend>This page is about</legend>${subject('person', 'A person')} ${subject('organization', 'An organization, a band or a business')}</fieldset>`,
    ],
    submit: 'Save',
  })
}

async function changeSearch(p: PageInput<User>) {
  const profile = await ownProfile(p)
  const values: SearchValues = {
    seoTitle: text(p.form, 'seoTitle'),
    seoDescription: text(p.form, 'seoDescription'),
    seoSubject: text(p.form, 'seoSubject') || 'person',
  }
  const body = { seoTitle: values.seoTitle.trim() || null, seoDescription: values.seoDescription.trim() || null, seoSubject: values.seoSubject }
  try {
    if (!checkUpdate(body)) throw validationError(checkUpdate.errors)
    await useCases.profiles.update(p.ctx, ownerPrincipal(p.user), profile.id, body as UpdateProfileRequest)
  } catch (err) {
    return profilePage(p, profile, { search: { values, errors: fieldErrorsOf(err) } }, 422)
  }
  return p.redirect(`/my-links/${profile.id}`, 'Saved. Search engines show the change the next time they visit your page.')
}

/** Deleting the page, confirmed by typing its address. */
function deletePageCard(p: PageInput<User>, profile: ProfileResource, s: State, url: string) {
  const base = `/my-links/${profile.id}`
  return formCard({
    id: 'delete',
    title: 'Delete this page',
    intro: h`<p>This cannot be undone. The page, its blocks, its statistics and the uploaded files no other page uses are deleted, and ${url} answers “not found” at once.</p>\n`,
    action: `${base}/delete`,
    csrf: p.csrf(),
    errors: s.deletion?.errors,
    fields: [
      field({
        name: 'confirmLogin',
        label: `Type the page’s address, ${profile.login}, to confirm`,
        errors: s.deletion?.errors,
        required: true,
        attrs: raw('autocomplete="off" spellcheck="false"'),
      }),
    ],
    submit: 'Delete the page forever',
    danger: true,
  })
}

async function qr(p: PageInput<User>, format: QrFormat) {
  const profile = await ownProfile(p)
  const image = await qrCode(await useCases.domains.pageAddress(p.ctx, profile), format)
  if (p.query.download !== undefined) p.reply.header('content-disposition', `attachment; filename="${profile.login}-qr.${format}"`)
  return p.reply.header('cache-control', 'private, no-cache').header('x-content-type-options', 'nosniff').type(image.contentType).send(image.body)
}

async function changeLogin(p: PageInput<User>) {
  const profile = await ownProfile(p)
  const login = text(p.form, 'login').trim()
  const understood = text(p.form, 'understood') === 'yes'
  const errors: FieldErrors = {}
  const principal = ownerPrincipal(p.user)
  if (login !== profile.login) {
    const verdict = await useCases.profiles.checkLogin(p.ctx, principal, { login, profile: String(profile.id) })
    if (!verdict.available) errors.login = [plainMessage(verdict.message)]
  } else errors.login = ['This is already the login of this page; type a new one.']
  if (!understood) errors.understood = ['Tick the box to confirm that the old address may stop working.']
  if (Object.keys(errors).length) return profilePage(p, profile, { login: { value: login, understood, errors } }, 422)
  try {
    // The use case announces both addresses: every page cache drops the old one at once.
    await useCases.profiles.changeSettings(p.ctx, principal, profile.id, { login })
  } catch (err) {
    return profilePage(p, profile, { login: { value: login, understood, errors: fieldErrorsOf(err) } }, 422)
  }
  return p.redirect(`/my-links/${profile.id}`, `The page moved to ${publicPageUrl(p.ctx.config, login)}. The old address no longer works.`)
}

async function remove(p: PageInput<User>) {
  const profile = await ownProfile(p)
  try {
    await useCases.profiles.remove(p.ctx, ownerPrincipal(p.user), profile.id, { confirmLogin: text(p.form, 'confirmLogin') })
  } catch (err) {
    return profilePage(p, profile, { deletion: { errors: fieldErrorsOf(err) } }, 422)
  }
  return p.redirect('/my-links', `The page ${profile.login} is deleted.`)
}
