import { directionOf, fill, type Messages } from '../i18n/catalogue.ts'
import { h, raw, type SafeHtml } from '../slots/shared/html.ts'
import type { SquareCropUrls } from '../media/file-url.ts'
import type { ImageFacts } from '../slots/types.ts'
import { socialIconSvg } from './social-icon-svg.ts'
import { jsonLdScript, profilePageData } from './structured-data.ts'
import { pageScript, pageStyle } from './theme.ts'

export interface SocialLink {
  /** The social's `order`: what the click redirect and analytics tell socials apart by. */
  order: number
  icon: string
  href: string
}

/** Everything the page shows, already resolved to URLs; rendering is pure from here. */
export interface PageModel {
  login: string
  lang: string
  /** The page's words in `lang` (src/i18n). */
  t: Messages
  /** The profile's theme (src/profiles/design-tokens.ts); unknown ids show the default. */
  themeId: number
  pageUrl: string
  title: string | null
  description: string | null
  /** What search results and link previews show instead of the title and description, when set. */
  seoTitle: string | null
  seoDescription: string | null
  seoSubject: 'person' | 'organization'
  /** The social links that are web addresses, as stored: rel="me" and the structured data's sameAs. */
  sameAs: string[]
  createdAt: string
  updatedAt: string
  /** The uploads themselves: what link previews (og:image) show. */
  avatarUrl: string | null
  bgImageUrl: string | null
  /** What the page itself shows of the avatar: crops sized for the circle and the icons. */
  avatarCrops: SquareCropUrls | null
  /** The cover's dimensions and WebP variants, when known. */
  bgImage: ImageFacts | null
  /** The generated link-preview image (src/pages/social-card.ts): og:image when there is no avatar or background. */
  cardUrl: string
  socials: SocialLink[]
  /** Each supported slot's own markup, in page order. */
  blocks: Array<{ id: number; type: string; html: SafeHtml }>
}

const SUMMARY_LENGTH = 160

/** The first sentences of the description, for search results and link previews. */
function summary(description: string | null, fallback: string): string {
  const flat = (description ?? '').replace(/\s+/g, ' ').trim()
  if (!flat) return fallback
  if (flat.length <= SUMMARY_LENGTH) return flat
  const cut = flat.slice(0, SUMMARY_LENGTH - 1)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), SUMMARY_LENGTH / 2))}…`
}

function head(m: PageModel): SafeHtml {
  const name = m.title?.trim() || `@${m.login}`
  const headline = m.seoTitle?.trim() || name
  const about = m.seoDescription?.trim() || summary(m.description, fill(m.t.pageAbout, { name }))
  // A preview always has an image: the profile's own, else the card drawn from its name.
  const image = m.avatarUrl ?? m.bgImageUrl ?? m.cardUrl
  const data = profilePageData({
    pageUrl: m.pageUrl,
    headline,
    summary: about,
    lang: m.lang,
    name,
    login: m.login,
    bio: m.description,
    imageUrl: m.avatarUrl,
    subject: m.seoSubject,
    sameAs: m.sameAs,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  })
  // The icons below go through the click counter; a fediverse server checking rel="me" wants the
  // address itself, which these carry.
  const me = m.sameAs.map((href) => h`<link rel="me" href="${href}">\n`)
  const large = Boolean(m.bgImageUrl) || !m.avatarUrl
  const style = pageStyle(m.themeId)
  return h`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${headline}</title>
<meta name="description" content="${about}">
<link rel="canonical" href="${m.pageUrl}">
${me}${m.avatarCrops ? h`<link rel="icon" href="${m.avatarCrops.favicon}" type="image/webp">\n<link rel="apple-touch-icon" href="${m.avatarCrops.touchIcon}">\n` : ''}<meta name="theme-color" content="${style.theme.light.bg}" media="(prefers-color-scheme: light)">
<meta name="theme-color" content="${style.theme.dark.bg}" media="(prefers-color-scheme: dark)">
<meta property="og:type" content="profile">
<meta property="og:site_name" content="Slotline">
<meta property="og:title" content="${headline}">
<meta property="og:description" content="${about}">
<meta property="og:url" content="${m.pageUrl}">
<meta property="profile:username" content="${m.login}">
<meta property="og:image" content="${image}">
<meta name="twitter:card" content="${large ? 'summary_large_image' : 'summary'}">
<meta name="twitter:title" content="${headline}">
<meta name="twitter:description" content="${about}">
<meta name="twitter:image" content="${image}">
${jsonLdScript(data)}
<style>${raw(style.css)}</style>
</head>`
}

function socials(m: PageModel): SafeHtml | '' {
  if (!m.socials.length) return ''
  const items = m.socials.map((s) => {
    const { svg, label } = socialIconSvg(s.icon)
    return h`<li><a class="social" href="${s.href}" data-social-index="${s.order}" rel="me noopener" aria-label="${label}" title="${label}">${svg}</a></li>`
  })
  return h`<nav class="socials" aria-label="${m.t.socialLinks}"><ul>${items}</ul></nav>`
}

/** The whole public page: readable without script; the one script only upgrades video embeds. */
// How wide the cover shows (theme.css): the column plus its padding on phones, 600 px from 640 px,
// the profile card (at most 380 px) from 960 px.
const COVER_SIZES = '(min-width: 960px) 380px, (min-width: 640px) 600px, calc(100vw + 32px)'

// The avatar's width (theme.css): 152 px from 960 px, 120 px below.
const AVATAR_SIZES = '(min-width: 960px) 152px, 120px'

export function renderPageDocument(m: PageModel): string {
  const name = m.title?.trim() || `@${m.login}`
  const blocks = m.blocks.map((b) => h`<div class="block block-${b.type}" id="slot-${b.id}">${b.html}</div>`)
  const { theme } = pageStyle(m.themeId)
  // Glass themes make the background image the page's backdrop instead of a cover above the name.
  // The widest WebP variant fills a phone or a desktop window alike; the upload when there is none.
  const backdrop = theme.glass && m.bgImageUrl ? (m.bgImage?.webp.at(-1)?.src ?? m.bgImageUrl) : null
  const cover = backdrop ? null : m.bgImageUrl
  const coverSrcset = m.bgImage?.webp.map((v) => `${v.src} ${v.width}w`).join(', ')
  const page = h`<!doctype html>
<html lang="${m.lang}" dir="${directionOf(m.lang)}">
${head(m)}
<body>
${backdrop ? h`<div class="photo-backdrop" style="${`--bg-photo:url("${backdrop.replace(/["\\\n]/g, encodeURIComponent)}")`}"></div>\n` : ''}<main class="page theme-${theme.id}${cover ? ' has-cover' : ''}">
<header class="profile">
${cover ? h`<img class="cover" src="${cover}"${coverSrcset ? h` srcset="${coverSrcset}" sizes="${COVER_SIZES}"` : ''} alt=""${m.bgImage ? h` width="${m.bgImage.width}" height="${m.bgImage.height}"` : ''} fetchpriority="high">` : ''}
${m.avatarCrops ? h`<img class="avatar" src="${m.avatarCrops.avatar}"${m.avatarCrops.avatarSrcset ? h` srcset="${m.avatarCrops.avatarSrcset}" sizes="${AVATAR_SIZES}"` : ''} alt="${name}" width="120" height="120"${cover ? '' : h` fetchpriority="high"`}>` : h`<div class="avatar avatar-initial" aria-hidden="true">${initial(name)}</div>`}
<h1>${name}</h1>
${m.description ? h`<p class="bio">${m.description}</p>` : ''}
${socials(m)}
</header>
${m.blocks.length ? h`<div class="blocks">${blocks}</div>` : ''}
<footer class="footer"><span>${m.t.madeWith}</span></footer>
</main>
<script>${raw(pageScript.script)}</script>
</body>
</html>
`
  return page.html
}

const initial = (name: string) => [...name.replace(/^@/, '')][0]?.toUpperCase() ?? '·'
