import type { FastifyInstance } from 'fastify'
import { strongEtag } from '../kernel/etag.ts'
import { etagMatches } from './negotiation.ts'
import { serviceMarkIco } from './service-mark.ts'

/**
 * `/favicon.ico` (the service mark; a public page names its avatar as its icon instead). The name
 * is a valid login by the spec's pattern; this fixed route wins over the page route, as every
 * static route does. `/robots.txt` depends on the host: pages/crawler-files.ts.
 */
export function installSiteFiles(app: FastifyInstance): void {
  const files = [{ url: '/favicon.ico', type: 'image/x-icon', body: serviceMarkIco() }]
  for (const file of files) {
    const etag = strongEtag(file.body)
    app.get(file.url, async (req, reply) => {
      reply.headers({ 'cache-control': 'public, max-age=86400', etag, 'x-content-type-options': 'nosniff' })
      if (etagMatches(req.headers['if-none-match'], etag)) return reply.code(304).send()
      return reply.type(file.type).send(file.body)
    })
  }
}
