import { ownerPrincipal } from '../auth/principal.ts'
import { THEMES, type Theme } from '../profiles/design-tokens.ts'
import { render } from '../core/use-cases.ts'
import { pageSecurityHeaders } from '../rendering/page-security-headers.ts'
import { pageStyle } from '../rendering/theme.ts'
import { resolveProfileKey } from '../profiles/profile-key.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import { profiles as profileUseCases, type StoredProfile } from '../core/use-cases.ts'
import type { User } from '../core/use-cases.ts'
import { formCard } from './form-fields.ts'
import { type PageInput, type PageRow, text } from './page-routes.ts'
import { parseId } from '../kernel/ids.ts'

export const themePickerPages: PageRow[] = [
  { method: 'POST', url: '/my-links/:profileId/theme', signedIn: true, handler: chooseTheme },
  { method: 'GET', url: '/my-links/:profileId/preview/:themeId', signedIn: true, handler: preview },
]

/**
 * One theme as a radio named by the theme alone (its line of description is tied to it), over a
 * light and a dark half drawn in the theme's own colours.
 */
function swatch(t: Theme, chosen: boolean, base: string): SafeHtml {
  const half = (scheme: 'light' | 'dark') =>
    h`<span class="tp-half tp-${scheme}"><span class="tp-avatar"></span><span class="tp-btn"></span><span class="tp-card"></span></span>`
  return h`<div class="tp tp-${t.id}"><label class="tp-choice"><input type="radio" name="themeId" value="${t.id}" aria-describedby="tp-${t.id}-d"${chosen ? h` checked` : ''}>
<span class="tp-halves" aria-hidden="true">${half('light')}${half('dark')}</span>
<span class="tp-title">${t.name}</span></label><span class="tp-desc" id="tp-${t.id}-d">${t.description}</span>
<a class="tp-preview" href="${base}/preview/${t.id}" target="_blank" rel="noopener">Preview<span class="sr-only"> ${t.name} with this page</span></a></div>`
}

/**
 * The profile page's theme section: every theme as a light/dark swatch in a grid (several a row
 * on a phone), the chosen one checked, and the apply button in a bar that stays at the bottom of
 * the screen while the grid scrolls by. A plain form post: no script needed.
 */
export function themePickerSection(profile: Pick<StoredProfile, 'id' | 'themeId'>, csrf: string, action = `/my-links/${profile.id}/theme`): SafeHtml {
  const base = `/my-links/${profile.id}`
  const current = THEMES.some((t) => t.id === profile.themeId) ? profile.themeId : THEMES[0].id
  return formCard({
    id: 'theme',
    title: 'Theme',
    intro: h`<p>Each swatch shows the theme by day and by night: visitors get the one their device asks for.</p>\n`,
    action,
    csrf,
    fields: [
      h`<fieldset class="tp-list"><legend class="sr-only">Theme of the page</legend>
${THEMES.map((t) => swatch(t, t.id === current, base))}
</fieldset>`,
    ],
    submit: 'Use this theme',
    submitBar: 'tp-apply',
  })
}

async function ownProfile(p: PageInput<User>): Promise<StoredProfile> {
  const key = parseId(p.params.profileId) === undefined ? '0' : p.params.profileId
  return resolveProfileKey(p.ctx.db, p.user.id, key)
}

const themeOf = (value: string) => THEMES.find((t) => String(t.id) === value)

async function chooseTheme(p: PageInput<User>) {
  const profile = await ownProfile(p)
  const theme = themeOf(text(p.form, 'themeId'))
  if (!theme) return p.redirect(`/my-links/${profile.id}#theme-h`, 'Pick one of the themes shown.', true)
  await profileUseCases.chooseTheme(p.ctx, ownerPrincipal(p.user), profile.id, theme.id)
  return p.redirect(`/my-links/${profile.id}`, `The page now uses the ${theme.name} theme.`)
}

/** The owner's page as it would look in another theme: rendered fresh, never cached or counted. */
async function preview(p: PageInput<User>) {
  const profile = await ownProfile(p)
  const theme = themeOf(p.params.themeId)
  if (!theme) return p.redirect(`/my-links/${profile.id}`, 'There is no such theme.', true)
  const html = await render.page(p.ctx, { ...profile, themeId: theme.id })
  return p.reply
    .headers({ ...pageSecurityHeaders(p.ctx.config.publicUrl, pageStyle(theme.id).hash), 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' })
    .type('text/html; charset=utf-8')
    .send(html)
}
