import type { Messages } from '../../i18n/catalogue.ts'
import en from '../../i18n/messages/en.ts'
import type { RenderContext } from '../types.ts'
import type { SafeHtml } from './html.ts'
import { mdText } from './markdown-text.ts'

export interface AnchorOptions {
  className: string
  /** CSS custom properties for custom styles; already checked to be declarations we produced. */
  style?: string
  /** Accessible name when the content is only an image. */
  label?: string
}

/**
 * An anchor that leads away from the page: always through the page's click redirect, and always
 * carrying data-slot-id, so clicks are counted and the destination comes from stored data.
 */
export function outbound(r: RenderContext, slotId: number, index: number, o: AnchorOptions, inner: unknown): SafeHtml {
  return r.h`<a class="${o.className}"${o.style ? r.h` style="${o.style}"` : ''} href="${r.clickHref(slotId, index)}" data-slot-id="${slotId}" rel="nofollow noopener"${
    o.label ? r.h` aria-label="${o.label}"` : ''
  }>${inner}</a>`
}

/** A remote http(s) image as the page serves it (its own proxied URL), else the URL unchanged. */
export const remoteImageOf = (r: RenderContext, url: string): string => (r.remoteImage && /^https?:\/\//i.test(url) ? r.remoteImage(url) : url)

/** The page's words (English when the page supplies none). */
export const words = (r: RenderContext): Messages => r.t ?? en

/** `{name}` placeholders of a message filled in (the catalogue's own filler). */
export { fill as say } from '../../i18n/catalogue.ts'

/** Plain text with its line breaks kept. */
export const lines = (r: RenderContext, text: string): SafeHtml => r.h`${text.split('\n').map((line, i) => (i === 0 ? line : r.h`<br>${line}`))}`

/** For a list of optional links: the index each non-empty one has in the slot's `links()` list. */
export function linkIndexes(links: string[]): Array<number | null> {
  let next = 0
  return links.map((l) => (l ? next++ : null))
}

/** The host of a link, for accessible names ("Open example.com"). */
export function hostOf(link: string): string {
  try {
    return new URL(link).hostname.replace(/^www\./, '') || link
  } catch {
    return link
  }
}

/** A markdown link whose text is text (no markup of its own, no way out of its brackets) and whose URL cannot leave its parentheses. */
export function mdLink(text: string, url: string): string {
  if (text === url && !/[\s<>]/.test(url)) return `<${url}>`
  const label = mdText(text)
  return /[\s()<>]/.test(url) ? `[${label}](<${url.replace(/[\s<>]/g, encodeURIComponent)}>)` : `[${label}](${url})`
}
