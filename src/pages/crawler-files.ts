import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../context.ts'
import { domainPageUrl, domains, visitor } from '../core/use-cases.ts'
import { publicPageUrl } from '../profiles/profile-resource.ts'
import { hostNameOf, serviceHostTest } from './page-hosts.ts'

/** The sitemap protocol's most addresses in one file; more pages make `/sitemap.xml` an index. */
export const SITEMAP_URLS_PER_FILE = 50_000

// Crawlers may read public pages and their images; the API, operations, click redirects (each
// would count as a click) and account pages are not for them.
const MAIN_HOST_RULES = `User-agent: *
Disallow: /v1/
Disallow: /-/
Disallow: /mcp
Disallow: /oauth/
Disallow: /.well-known/
Disallow: /login
Disallow: /register
Disallow: /settings
Allow: /
`

// A page's own domain serves the page at / and what it needs; click redirects stay uncrawled.
const DOMAIN_RULES = `User-agent: *
Disallow: /-/go/
Allow: /
`

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }
const xml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c])

const URLSET_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
const URLSET_CLOSE = '</urlset>\n'
const location = (url: string) => `<url><loc>${xml(url)}</loc></url>\n`

/**
 * Per host, `/robots.txt` and `/sitemap.xml`. The main host lists its published pages; one with
 * an active domain is listed by that domain's own sitemap alone, since a sitemap names addresses
 * of its own host and the old address only redirects. Past `perFile` pages the main sitemap
 * becomes an index of `/sitemap-<n>.xml` files, each an id range streamed from the store.
 */
export function installCrawlerFiles(app: FastifyInstance, ctx: AppContext, perFile = SITEMAP_URLS_PER_FILE): void {
  const isServiceHost = serviceHostTest(() => ctx.config.publicUrl)
  const onDomain = async (req: FastifyRequest) => {
    const host = hostNameOf(req.headers.host)
    if (isServiceHost(host)) return undefined
    const profile = await domains.pageOfDomain(ctx, host)
    return profile ? host : undefined
  }
  const send = (reply: FastifyReply, type: string, body: string | Readable) =>
    reply.headers({ 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff', vary: 'Host' }).type(type).send(body)

  app.get('/robots.txt', async (req, reply) => {
    const host = await onDomain(req)
    const origin = host ? domainPageUrl(host).replace(/\/$/, '') : ctx.config.publicUrl
    return send(reply, 'text/plain; charset=utf-8', `${host ? DOMAIN_RULES : MAIN_HOST_RULES}Sitemap: ${origin}/sitemap.xml\n`)
  })

  app.get('/sitemap.xml', async (req, reply) => {
    const host = await onDomain(req)
    if (host) return send(reply, 'application/xml; charset=utf-8', URLSET_OPEN + location(domainPageUrl(host)) + URLSET_CLOSE)
    const files = await visitor.sitemapFiles(ctx, perFile)
    if (files.length <= 1) return send(reply, 'application/xml; charset=utf-8', Readable.from(urlset(files[0])))
    const entries = files.map((n) => `<sitemap><loc>${xml(`${ctx.config.publicUrl}/sitemap-${n}.xml`)}</loc></sitemap>\n`)
    const index = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('')}</sitemapindex>\n`
    return send(reply, 'application/xml; charset=utf-8', index)
  })

  // A page's own domain has the one sitemap; the hook in public-pages.ts answers 404 there.
  app.get<{ Params: { file: string } }>('/sitemap-:file', async (req, reply) => {
    const n = /^(0|[1-9]\d{0,8})\.xml$/.exec(req.params.file)?.[1]
    if (n === undefined) return reply.callNotFound()
    return send(reply, 'application/xml; charset=utf-8', Readable.from(urlset(Number(n))))
  })

  /** One file's addresses as they are read; an empty range is still a well-formed urlset. */
  async function* urlset(file: number | undefined): AsyncGenerator<string> {
    yield URLSET_OPEN
    if (file !== undefined) for await (const login of visitor.sitemapLogins(ctx, file, perFile)) yield location(publicPageUrl(ctx.config, login))
    yield URLSET_CLOSE
  }
}
