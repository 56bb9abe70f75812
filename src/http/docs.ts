import type { FastifyInstance } from 'fastify'
import { servedEncoded } from './content-encoding.ts'
import { renderReference, type ReferenceDocument } from './docs-page.ts'
import { buildOpenApi } from './openapi.ts'
import type { AppContext } from '../context.ts'
import type { RouteModule } from './routes.ts'

/**
 * `/v1/docs`: the API reference, rendered on our side from the same OpenAPI document as
 * /openapi.json (which itself asks for a token), with examples to copy and the table of error
 * codes that error `documentation` links point at (`#error-<code>`).
 */
export function installDocs(app: FastifyInstance, ctx: AppContext, modules: RouteModule[]): void {
  // Made on the first request for it, compressed once: the document does not change while we run.
  let page: { encoded: ReturnType<typeof servedEncoded>; csp: string } | undefined
  app.get('/v1/docs', async (req, reply) => {
    if (!page) {
      const rendered = renderReference(buildOpenApi(ctx.config, modules) as unknown as ReferenceDocument, ctx.config.publicUrl)
      page = { encoded: servedEncoded(Buffer.from(rendered.html)), csp: rendered.csp }
    }
    const sent = await page.encoded(req.headers['accept-encoding'])
    reply.type('text/html; charset=utf-8').header('content-security-policy', page.csp).header('vary', 'accept-encoding')
    if (sent.encoding) reply.header('content-encoding', sent.encoding)
    return reply.send(sent.body)
  })
}
