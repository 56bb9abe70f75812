import { plainMessage } from '../plain-words.ts'
import { ownerPrincipal } from '../../auth/principal.ts'
import type { User } from '../../core/use-cases.ts'
import type { FieldErrors } from '../../kernel/errors.ts'
import * as useCases from '../../core/use-cases.ts'
import { limits } from '../../kernel/limits.ts'
import { THEMES } from '../../profiles/design-tokens.ts'
import { publicPageUrl } from '../../profiles/profile-resource.ts'
import type { ProfileResource } from '../../profiles/profile-schemas.ts'
import { h, raw, type SafeHtml } from '../../slots/shared/html.ts'
import { field, fieldErrorsOf, formCard } from '../form-fields.ts'
import { LOGIN_HINT } from '../my-links.ts'
import { type PageInput, type PageRow, text } from '../page-routes.ts'
import { themePickerSection } from '../theme-picker.ts'
import { livePreviewOf } from './live-preview.ts'

// The page's look and address inside the editor, beside its blocks: the theme (the preview
// follows a swatch as soon as it is picked, through the live preview's dry run) and the address.
// The same use cases as the page's settings; answers come back to the editor.

export interface AddressState {
  value: string
  understood: boolean
  errors: FieldErrors
}

type Show = (p: PageInput<User>, s: { address?: AddressState }, status?: number) => Promise<unknown>

const idOf = (value: string | undefined) => (/^[1-9]\d{0,15}$/.test(value ?? '') ? Number(value) : 0)

export function pageDesignPages(at: string, show: Show): PageRow[] {
  return [
    { method: 'POST', url: `${at}/theme`, signedIn: true, multipart: true, handler: chooseTheme },
    { method: 'POST', url: `${at}/address`, signedIn: true, multipart: true, handler: (p) => changeAddress(p, show) },
  ]
}

async function chooseTheme(p: PageInput<User>) {
  const id = idOf(p.params.profileId)
  const editor = `/my-links/${id}/editor`
  const theme = THEMES.find((t) => String(t.id) === text(p.form, 'themeId'))
  const look = livePreviewOf(p)
  if (!theme) return look ? look.answer() : p.redirect(`${editor}#theme-h`, 'Pick one of the themes shown.', true)
  await useCases.profiles.chooseTheme(p.ctx, ownerPrincipal(p.user), id, theme.id, look?.options)
  if (look) return look.answer()
  return p.redirect(`${editor}#theme-h`, `The page now uses the ${theme.name} theme.`)
}

async function changeAddress(p: PageInput<User>, show: Show) {
  const id = idOf(p.params.profileId)
  const principal = ownerPrincipal(p.user)
  const profile = await useCases.profiles.get(p.ctx, principal, id)
  const login = text(p.form, 'login').trim()
  const understood = text(p.form, 'understood') === 'yes'
  const errors: FieldErrors = {}
  if (login !== profile.login) {
    const verdict = await useCases.profiles.checkLogin(p.ctx, principal, { login, profile: String(profile.id) })
    if (!verdict.available) errors.login = [plainMessage(verdict.message)]
  } else errors.login = ['This is already the address of this page; type a new one.']
  if (!understood) errors.understood = ['Tick the box to confirm that the old address may stop working.']
  if (Object.keys(errors).length) return show(p, { address: { value: login, understood, errors } }, 422)
  try {
    await useCases.profiles.changeSettings(p.ctx, principal, profile.id, { login })
  } catch (err) {
    return show(p, { address: { value: login, understood, errors: fieldErrorsOf(err) } }, 422)
  }
  return p.redirect(`/my-links/${profile.id}/editor#address-h`, `The page moved to ${publicPageUrl(p.ctx.config, login)}. The old address no longer works.`)
}

/** The theme picker of the page's settings, posting to the editor (and previewed live by its script). */
export function themeSection(profile: ProfileResource, csrf: string): SafeHtml {
  return themePickerSection(profile, csrf, `/my-links/${profile.id}/editor/theme`)
}

/** The page's address and how to change it. */
export function addressSection(profile: ProfileResource, publicUrl: string, csrf: string, s: AddressState | undefined): SafeHtml {
  return formCard({
    id: 'address',
    title: 'Page address',
    intro: h`<p>Your page is at <a href="${publicUrl}">${publicUrl}</a>. <strong>If you change it, the old address stops working at once:</strong> links you shared and printed QR codes will lead nowhere.</p>\n`,
    action: `/my-links/${profile.id}/editor/address`,
    csrf,
    errors: s?.errors,
    fields: [
      field({
        name: 'login',
        label: 'New address (the part after the last /)',
        value: s?.value ?? profile.login,
        errors: s?.errors,
        hint: LOGIN_HINT,
        required: true,
        status: true,
        attrs: raw(
          `maxlength="${limits.login.maxLength}" autocomplete="off" spellcheck="false" data-login-check="/my-links/check-login" data-profile="${profile.id}" data-status="f-login-status"`,
        ),
      }),
      h`<div class="field"><label><input type="checkbox" name="understood" value="yes"${s?.understood ? raw(' checked') : ''}${s?.errors.understood ? raw(' aria-invalid="true" aria-describedby="f-understood-error"') : ''}> I understand that the old address, its links and QR codes stop working.</label>
${s?.errors.understood ? h`<p class="error" id="f-understood-error">${s.errors.understood.join(' ')}</p>` : ''}</div>`,
    ],
    submit: 'Change the address',
  })
}
