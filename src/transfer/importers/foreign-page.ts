import { limits } from '../../kernel/limits.ts'
import { normaliseSocials } from '../../profiles/socials.ts'
import { slotTypes } from '../../slots/registry.ts'
import { musicPlatformOf } from '../../slots/shared/music-platforms.ts'
import { plainText } from '../../slots/shared/plain-text.ts'
import { parseVideoId } from '../../slots/youtube.ts'
import { PAGE_DOCUMENT_FORMAT, PAGE_DOCUMENT_VERSION, type PageDocument, type PageDocumentSlot, type SkippedItem } from '../page-document.ts'
import { checkSlotData } from '../../slots/slot-data.ts'

/** A block of another service's page, in the few kinds every link-in-bio service has. */
export type ForeignBlock =
  | { kind: 'link'; title: string; url: string; where: string }
  | { kind: 'heading'; title: string; where: string }
  | { kind: 'paragraph'; title: string; text: string; where: string }
  | { kind: 'spacer'; where: string }

/** What an importer reads from another service's page, before it becomes a page document. */
export interface ForeignPage {
  username?: string
  title?: string
  bio?: string
  /** Where the avatar can be downloaded, or its bytes when the export carries them. */
  avatarUrl?: string
  avatarBytes?: Uint8Array
  socials: Array<{ url: string; where: string }>
  blocks: ForeignBlock[]
  /** What the reader could not map (an unknown block without a link), with why. */
  skipped: SkippedItem[]
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s)

/** A login from the other service's name: our characters only, padded to the minimum length. */
export function loginFrom(name: string | undefined): string {
  const cleaned = (name ?? '').replace(/[^a-zA-Z0-9._]/g, '').slice(0, limits.login.maxLength)
  return cleaned.length >= limits.login.minLength ? cleaned : `${cleaned}_page`.replace(/^_/, 'imported_')
}

/** A slot, if its type accepts it; otherwise the type's own first complaint. */
function accepted(type: keyof typeof slotTypes, data: Record<string, unknown>): { slot: PageDocumentSlot } | { problem: string } {
  const check = checkSlotData(slotTypes[type], data, 'data')
  if (check.ok) return { slot: { type, data: check.data } }
  const [field, messages] = Object.entries(check.errors)[0]
  return { problem: `${field}: ${messages[0]}` }
}

/**
 * A link becomes the most specific block that accepts it: a YouTube video, a release
 * on a music platform, otherwise a button. A link no block accepts (javascript:, an unknown
 * scheme) is reported with the button's reason.
 */
function linkSlot(title: string, url: string): { slot: PageDocumentSlot } | { problem: string } {
  const label = clip(title.trim(), 120)
  if (parseVideoId(url)) {
    const video = accepted('youtube', { title: clip(title.trim(), 200), link: url })
    if ('slot' in video) return video
  }
  if (musicPlatformOf(url)) {
    const release = accepted('music', { album: clip(title.trim(), 200), links: [{ link: url }] })
    if ('slot' in release) return release
  }
  return accepted('button', { title: label || clip(hostOf(url), 120), link: url })
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, '')
  } catch {
    return url
  }
}

/** The page document of a foreign page (no images: the avatar is added by the caller), and what was left out. */
export function toPageDocument(page: ForeignPage): { document: PageDocument; skipped: SkippedItem[] } {
  const skipped = [...page.skipped]
  const slots: PageDocumentSlot[] = []
  for (const block of page.blocks) {
    if (slots.length >= limits.slotsPerProfile) {
      skipped.push({ field: block.where, reason: `A page holds at most ${limits.slotsPerProfile} blocks.` })
      continue
    }
    const made =
      block.kind === 'link'
        ? linkSlot(block.title, block.url)
        : block.kind === 'heading'
          ? accepted('text', { title: clip(block.title.trim(), 200), textStyle: 'plain' })
          : block.kind === 'paragraph'
            ? accepted('text', { title: clip(block.title.trim(), 200), description: block.text.slice(0, 20000) })
            : accepted('divider', {})
    if ('slot' in made) slots.push(made.slot)
    else skipped.push({ field: block.where, reason: `Not a block this service accepts: ${made.problem}` })
  }
  const socials: PageDocument['profile']['socials'] = []
  for (const s of page.socials) {
    const { socials: ok, errors } = normaliseSocials([{ link: s.url }])
    if (Object.keys(errors).length || !ok.length)
      skipped.push({ field: s.where, reason: `Not a social link this service accepts: ${Object.values(errors)[0]?.[0] ?? s.url}` })
    else if (socials.length >= limits.socialsPerProfile)
      skipped.push({ field: s.where, reason: `A page shows at most ${limits.socialsPerProfile} social links.` })
    else socials.push({ link: ok[0].link, order: socials.length })
  }
  const document: PageDocument = {
    format: PAGE_DOCUMENT_FORMAT,
    version: PAGE_DOCUMENT_VERSION,
    profile: {
      login: loginFrom(page.username),
      title: page.title?.trim() ? clip(page.title.trim(), 200) : null,
      // Clipped before it is cleaned as well: a long bio of unclosed tags is slow to clean.
      description: page.bio ? clip(plainText(page.bio.slice(0, 2 * 5000)), 5000) || null : null,
      avatar: null,
      bgImage: null,
      socials,
      languageCode: null,
      themeId: 1,
      published: true,
    },
    slots,
    files: [],
  }
  return { document, skipped }
}
