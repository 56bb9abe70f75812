import { invalidField } from '../../kernel/errors.ts'
import type { ForeignPage } from './foreign-page.ts'
import { absolute, elements, textOf, voidElements } from './html-text.ts'

/**
 * A LittleLink page (littlelink.io and its forks): static HTML whose links are anchors with the
 * class `button` and a brand class (`button button-github`). Page title from the first h1 (else
 * <title>), bio from the first paragraph after it, avatar from the img with class `avatar`.
 * Relative addresses are resolved against the page's own address when it is known.
 */
export function readLittleLink(html: string, pageUrl?: string): ForeignPage {
  const page: ForeignPage = { socials: [], blocks: [], skipped: [] }
  const buttons = elements(html, 'a').filter((a) => (a.attrs.class ?? '').split(/\s+/).includes('button'))
  if (!buttons.length) throw invalidField('content', 'No LittleLink buttons (links with class "button") in this page.')
  const h1 = elements(html, 'h1')[0]
  page.title = h1 ? textOf(h1.inner) : textOf(elements(html, 'title')[0]?.inner ?? '')
  const bio = elements(html, 'p').find((p) => !h1 || p.at > h1.at)
  if (bio && (!buttons.length || bio.at < buttons[0].at)) page.bio = textOf(bio.inner)
  const avatar = voidElements(html, 'img').find((img) => /\bavatar\b/.test(img.attrs.class ?? ''))
  if (avatar?.attrs.src) page.avatarUrl = absolute(avatar.attrs.src, pageUrl)
  page.username = (page.title ?? '').toLowerCase().replace(/\s+/g, '.')
  buttons.forEach((a, i) => {
    const where = `littlelink.buttons.${i}`
    const brand = (a.attrs.class ?? '').split(/\s+/).find((c) => c.startsWith('button-'))?.slice('button-'.length)
    const title = textOf(a.inner) || a.attrs['aria-label'] || a.attrs.title || brand || ''
    const url = a.attrs.href ? absolute(a.attrs.href, pageUrl) : undefined
    if (!url) {
      const why = a.attrs.href ? 'a relative address, and the page address is unknown (import by url instead)' : 'no address'
      page.skipped.push({ field: where, reason: `The button "${title}" has ${why}.` })
      return
    }
    page.blocks.push({ kind: 'link', title, url, where })
  })
  return page
}
