import { raw, type SafeHtml } from '../slots/shared/html.ts'

/** What the page's structured data says about it; every value already resolved. */
export interface PageFacts {
  pageUrl: string
  /** What search results show: the owner's search title, else the page's name. */
  headline: string
  summary: string
  lang: string
  /** The name the page shows and the login behind it. */
  name: string
  login: string
  bio: string | null
  imageUrl: string | null
  subject: 'person' | 'organization'
  /** The social links that are web addresses: the profiles elsewhere that are the same one. */
  sameAs: string[]
  createdAt: string
  updatedAt: string
}

/**
 * A schema.org ProfilePage about a Person or an Organization, the shape search engines read
 * for a profile: its mainEntity carries the name, the login as alternateName and identifier,
 * and sameAs for the other profiles.
 */
export function profilePageData(f: PageFacts): Record<string, unknown> {
  const entity: Record<string, unknown> = {
    '@type': f.subject === 'organization' ? 'Organization' : 'Person',
    name: f.name,
    alternateName: `@${f.login}`,
    identifier: f.login,
    url: f.pageUrl,
  }
  if (f.bio) entity.description = f.bio
  if (f.imageUrl) entity.image = f.imageUrl
  if (f.sameAs.length) entity.sameAs = f.sameAs
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfilePage',
    url: f.pageUrl,
    name: f.headline,
    description: f.summary,
    inLanguage: f.lang,
    dateCreated: f.createdAt,
    dateModified: f.updatedAt,
    mainEntity: entity,
  }
}

// Inside <script> only `</script` or `<!--` could end or bend the element: with every `<`, `>`
// and `&` written as a JSON escape neither can appear, and the JSON reads the same. U+2028 and
// U+2029 are escaped for readers that take the block as script.
const JSON_IN_HTML: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' }

/** The data as a `<script type="application/ld+json">` element that no value can break out of. */
export function jsonLdScript(data: unknown): SafeHtml {
  const json = JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (c) => JSON_IN_HTML[c])
  return raw(`<script type="application/ld+json">${json}</script>`)
}
