import { invalidField } from '../../kernel/errors.ts'
import type { ForeignPage } from './foreign-page.ts'
import { absolute, collapsed, readElements } from './html-text.ts'
import type { ParseBudget } from './parse-budget.ts'

/**
 * A LittleLink page (littlelink.io and its forks): static HTML whose links are anchors with the
 * class `button` and a brand class (`button button-github`). Page title from the first h1 (else
 * <title>), bio from the first paragraph after it, avatar from the img with class `avatar`.
 * Relative addresses are resolved against the page's own address when it is known.
 */
export async function readLittleLink(html: string, pageUrl: string | undefined, budget: ParseBudget): Promise<ForeignPage> {
  const page: ForeignPage = { socials: [], blocks: [], skipped: [] }
  const found = await readElements(html, ['a', 'h1', 'title', 'p', 'img'], budget)
  const buttons = found.a.filter((a) => (a.attrs.class ?? '').split(/\s+/).includes('button'))
  if (!buttons.length) throw invalidField('content', 'No LittleLink buttons (links with class "button") in this page.')
  const h1 = found.h1[0]
  page.title = collapsed(h1 ? h1.text : (found.title[0]?.text ?? ''))
  const bio = found.p.find((p) => !h1 || p.at > h1.at)
  if (bio && (!buttons.length || bio.at < buttons[0].at)) page.bio = collapsed(bio.text)
  const avatar = found.img.find((img) => /\bavatar\b/.test(img.attrs.class ?? ''))
  if (avatar?.attrs.src) page.avatarUrl = absolute(avatar.attrs.src, pageUrl)
  page.username = (page.title ?? '').toLowerCase().replace(/\s+/g, '.')
  buttons.forEach((a, i) => {
    budget.check()
    const where = `littlelink.buttons.${i}`
    const brand = (a.attrs.class ?? '')
      .split(/\s+/)
      .find((c) => c.startsWith('button-'))
      ?.slice('button-'.length)
    const title = collapsed(a.text) || a.attrs['aria-label'] || a.attrs.title || brand || ''
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
