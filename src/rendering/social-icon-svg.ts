import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { SOCIAL_PLATFORMS } from '../profiles/social-icons.ts'
import { raw, type SafeHtml } from '../slots/shared/html.ts'
import { MUSIC_PLATFORMS } from '../slots/shared/music-platforms.ts'

/**
 * Inline 24×24 icons, one per icon name socialIcon() can answer, drawn in currentColor so the
 * theme colours them. Inline, because a sprite or an icon font would cost a request and a CSP
 * exception. Brand marks come from simple-icons (CC0); the few it does not carry (brands that
 * asked to be removed) and the generic scheme icons are drawn here as strokes.
 */
const STROKED: Record<string, string> = {
  email: '<rect x="2.5" y="4.5" width="19" height="15" rx="2.5"/><path d="m3 6.5 9 6.5 9-6.5"/>',
  phone:
    '<path d="M21.5 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 1.6 4.2 2 2 0 0 1 3.6 2h3a2 2 0 0 1 2 1.7c.1 1 .4 1.9.7 2.8a2 2 0 0 1-.5 2.1L7.6 9.9a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.8.7a2 2 0 0 1 1.7 2z"/>',
  link: '<path d="M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7.1L11.8 5.2"/><path d="M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7.1l1.7-1.7"/>',
  skype:
    '<path d="M7.5 2.5a5 5 0 0 0-5 5c0 .8.2 1.6.5 2.3a9.5 9.5 0 0 0 11.2 11.2c.7.3 1.5.5 2.3.5a5 5 0 0 0 5-5c0-.8-.2-1.6-.5-2.3A9.5 9.5 0 0 0 9.8 3a5 5 0 0 0-2.3-.5z"/><path d="M15.3 9c-.4-1-1.6-1.8-3.3-1.8-2 0-3.2 1-3.2 2.3 0 3 6.6 1.8 6.6 5 0 1.3-1.3 2.3-3.4 2.3-1.8 0-3-.9-3.4-2"/>',
  amazon:
    '<path d="M3 16.5c5.2 3.4 12.4 3.6 17.5.3"/><path d="m17.8 15.6 2.9.9-.8 2.9"/><path d="M14.2 13V7.6c0-1.9-1.3-3.1-3.3-3.1-1.6 0-2.8.8-3.2 2"/><path d="M14.2 9.2c-3.9 0-6.7.8-6.7 3 0 1.3 1 2 2.3 2 2.2 0 4.4-1.6 4.4-4"/>',
  'amazon-music':
    '<path d="M3 17c5.2 3.4 12.4 3.6 17.5.3"/><path d="m17.8 16.1 2.9.9-.8 2.9"/><path d="M10 13V4.5l7-1.5v8.5"/><circle cx="8" cy="13" r="2"/><circle cx="15" cy="11.5" r="2"/>',
  linkedin: '<rect x="2.5" y="2.5" width="19" height="19" rx="2.5"/><path d="M7.5 10.5v6M7.5 7.3v.1M11 16.5v-6M11 13a2.5 2.5 0 0 1 5 0v3.5"/>',
}

/** simple-icons names its files without dashes, and a few brands differently from us. */
const FILE_NAMES: Record<string, string> = { weibo: 'sinaweibo', ok: 'odnoklassniki' }

const LABELS: Record<string, string> = {
  email: 'E-mail',
  phone: 'Phone',
  link: 'Website',
  whatsapp: 'WhatsApp',
  x: 'X',
  ok: 'OK',
  vk: 'VK',
  imdb: 'IMDb',
  linkedin: 'LinkedIn',
}

const require = createRequire(import.meta.url)

function brandMark(icon: string): { paths: string; title: string } | undefined {
  const file = FILE_NAMES[icon] ?? icon.replaceAll('-', '')
  let svg: string
  try {
    svg = readFileSync(require.resolve(`simple-icons/icons/${file}.svg`), 'utf8')
  } catch {
    return undefined
  }
  const d = /<path d="([^"]+)"/.exec(svg)?.[1]
  const title = /<title>([^<]+)<\/title>/.exec(svg)?.[1]
  return d && title ? { paths: `<path d="${d}"/>`, title: title.replaceAll('&amp;', '&') } : undefined
}

interface Drawing {
  svg: SafeHtml
  label: string
}

const frame = (body: string, stroked: boolean) =>
  stroked
    ? `<svg class="icon" viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${body}</svg>`
    : `<svg class="icon" viewBox="0 0 24 24" width="24" height="24" fill="currentColor" aria-hidden="true" focusable="false">${body}</svg>`

const humanise = (icon: string) => icon.replace(/(^|-)(\w)/g, (_m, dash: string, c: string) => (dash ? ' ' : '') + c.toUpperCase())

const drawings = new Map<string, Drawing>()
// Music platforms too: a music block shows each platform's mark beside its name.
for (const icon of [...SOCIAL_PLATFORMS.map((p) => p.icon), ...MUSIC_PLATFORMS.map((p) => p.icon), 'email', 'phone', 'whatsapp', 'link']) {
  if (drawings.has(icon)) continue
  const brand = STROKED[icon] ? undefined : brandMark(icon)
  if (brand) drawings.set(icon, { svg: raw(frame(brand.paths, false)), label: LABELS[icon] ?? brand.title })
  else if (STROKED[icon]) drawings.set(icon, { svg: raw(frame(STROKED[icon], true)), label: LABELS[icon] ?? humanise(icon) })
}

/** Every icon name we can draw; a test holds it to cover everything socialIcon() can answer. */
export const DRAWN_ICONS: readonly string[] = Object.freeze([...drawings.keys()])

/** The icon's SVG (the generic link for names we do not draw) and its accessible name. */
export function socialIconSvg(icon: string): Drawing {
  return drawings.get(icon) ?? drawings.get('link')!
}
