import type { FastifyInstance } from 'fastify'
import { strongEtag } from '../kernel/etag.ts'
import { etagMatches } from './negotiation.ts'
import { serviceMarkIco } from './service-mark.ts'

// Crawlers may read public pages and their images; the API, operations, click redirects (each
// would count as a click) and account pages are not for them.
const ROBOTS = `User-agent: *
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

/**
 * `/favicon.ico` (the service mark; a public page names its avatar as its icon instead) and
 * `/robots.txt`. Both names are valid logins by the spec's pattern; these fixed routes win over
 * the page route, as every static route does.
 */
export function installSiteFiles(app: FastifyInstance): void {
  const files = [
    { url: '/favicon.ico', type: 'image/x-icon', body: serviceMarkIco() },
    { url: '/robots.txt', type: 'text/plain; charset=utf-8', body: Buffer.from(ROBOTS) },
  ]
  for (const file of files) {
    const etag = strongEtag(file.body)
    app.get(file.url, async (req, reply) => {
      reply.headers({ 'cache-control': 'public, max-age=86400', etag, 'x-content-type-options': 'nosniff' })
      if (etagMatches(req.headers['if-none-match'], etag)) return reply.code(304).send()
      return reply.type(file.type).send(file.body)
    })
  }
}
