import { invalidField } from '../../kernel/errors.ts'
import type { ForeignBlock, ForeignPage } from './foreign-page.ts'
import { decodeEntities, readElements } from './html-text.ts'
import type { ParseBudget } from './parse-budget.ts'

type Json = Record<string, any>

// Linktree's block kinds that are a heading, not a link; every other kind with a URL is a link
// (CLASSIC, YOUTUBE_VIDEO, MUSIC, SPOTIFY, COMMERCE_…): the mapping picks the block from the URL.
const HEADERS = new Set(['HEADER', 'HEADING', 'SECTION_HEADER'])

const asArray = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : [])
const str = (v: unknown) => (typeof v === 'string' ? v : '')

/**
 * A Linktree page as its server sends it: the page's data is the Next.js `__NEXT_DATA__` JSON
 * embedded in the HTML, so no markup is scraped. Links are read in their `position` order
 * (array order when it is missing), from `pageProps.links` or, on older pages, `account.links`.
 */
export async function readLinktree(html: string, budget: ParseBudget): Promise<ForeignPage> {
  const script = (await readElements(html, ['script'], budget)).script.find((s) => s.attrs.id === '__NEXT_DATA__')
  if (!script)
    throw invalidField('content', 'No Linktree page data (__NEXT_DATA__) in this page: send the address of a public Linktree page, or its saved HTML.')
  let data: Json
  try {
    data = JSON.parse(script.text.trim().startsWith('{') ? script.text : decodeEntities(script.text))
  } catch {
    throw invalidField('content', 'The Linktree page data (__NEXT_DATA__) is not valid JSON.')
  }
  const props: Json = data?.props?.pageProps ?? {}
  const account: Json = props.account ?? props.profile ?? {}
  const links = asArray(props.links).length ? asArray(props.links) : asArray(account.links)
  const ordered = links.map((l, i) => ({ l, i })).sort((a, b) => Number(a.l.position ?? a.i) - Number(b.l.position ?? b.i) || a.i - b.i)
  const page: ForeignPage = {
    username: str(account.username) || str(props.username),
    title: str(account.pageTitle) || str(account.title) || (account.username ? `@${account.username}` : ''),
    bio: str(account.description) || str(account.bio),
    avatarUrl: str(account.profilePictureUrl) || str(account.customAvatar) || str(account.avatarUrl) || undefined,
    socials: [],
    blocks: [],
    skipped: [],
  }
  for (const { l, i } of ordered) {
    budget.check()
    const where = `linktree.links.${i}`
    const type = str(l.type).toUpperCase()
    const title = str(l.title)
    const url = str(l.url) || str(l.context?.url)
    if (l.archived === true || l.isHidden === true) {
      page.skipped.push({ field: where, reason: 'Hidden on the Linktree page.' })
      continue
    }
    let block: ForeignBlock | undefined
    if (HEADERS.has(type)) block = { kind: 'heading', title, where }
    else if (url) block = { kind: 'link', title, url, where }
    if (block) page.blocks.push(block)
    else page.skipped.push({ field: where, reason: `A Linktree ${type || 'block'} without a link has no block here.` })
  }
  const socials = asArray(props.socialLinks).length ? asArray(props.socialLinks) : asArray(account.socialLinks)
  socials
    .map((s, i) => ({ s, i }))
    .sort((a, b) => Number(a.s.position ?? a.i) - Number(b.s.position ?? b.i) || a.i - b.i)
    .forEach(({ s, i }) => {
      if (str(s.url)) page.socials.push({ url: str(s.url), where: `linktree.socialLinks.${i}` })
    })
  return page
}
