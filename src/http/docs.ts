import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { servedEncoded } from './content-encoding.ts'
import { buildOpenApi } from './openapi.ts'
import type { AppContext } from '../context.ts'
import { errorTable } from '../kernel/errors.ts'
import type { RouteModule } from './routes.ts'

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/**
 * `/v1/docs`: the interactive reference (Swagger UI, served from our own node_modules, no CDN)
 * with the document inlined, since /openapi.json itself asks for a token. Error links point
 * at the table of error codes below it.
 */
export function installDocs(app: FastifyInstance, ctx: AppContext, modules: RouteModule[]): void {
  const uiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  // The bundle is 1.7 MB: read on the first request for it, compressed once, not on every request.
  const assets: Record<string, { type: string; file: string; encoded?: ReturnType<typeof servedEncoded> }> = {
    'swagger-ui.css': { type: 'text/css; charset=utf-8', file: 'swagger-ui.css' },
    'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', file: 'swagger-ui-bundle.js' },
  }
  app.get('/-/docs/:asset', async (req, reply) => {
    const asset = Object.hasOwn(assets, (req.params as { asset: string }).asset) ? assets[(req.params as { asset: string }).asset] : undefined
    if (!asset) return reply.callNotFound()
    asset.encoded ??= servedEncoded(readFileSync(join(uiDir, asset.file)))
    return sendEncoded(req, reply.type(asset.type).header('cache-control', 'public, max-age=86400'), asset.encoded)
  })

  let page: ReturnType<typeof servedEncoded> | undefined
  let csp = ''
  app.get('/v1/docs', async (req, reply) => {
    if (!page) {
      const rendered = render(JSON.stringify(buildOpenApi(ctx.config, modules)).replace(/</g, '\\u003c'))
      page = servedEncoded(Buffer.from(rendered.html))
      csp = rendered.csp
    }
    return sendEncoded(req, reply.type('text/html; charset=utf-8').header('content-security-policy', csp), page)
  })
}

async function sendEncoded(req: FastifyRequest, reply: FastifyReply, encoded: ReturnType<typeof servedEncoded>) {
  const sent = await encoded(req.headers['accept-encoding'])
  reply.header('vary', 'accept-encoding')
  if (sent.encoding) reply.header('content-encoding', sent.encoding)
  return reply.send(sent.body)
}

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

const STYLE = `body{margin:0;font-family:system-ui,sans-serif}#errors{max-width:1400px;margin:2rem auto;padding:0 20px}
#errors table{border-collapse:collapse;width:100%}#errors td,#errors th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}
#errors tr:target{background:#fff6d5}`

/**
 * The page and its policy: Swagger UI's bundle and stylesheet from us, the two inline blocks by
 * hash, its icons as data: images, "Try it out" to this origin only, never framed.
 */
function render(specJson: string): { html: string; csp: string } {
  const rows = Object.entries(errorTable)
    .map(
      ([code, e]) =>
        `<tr id="error-${code}"><td><code>${code}</code></td><td>${e.status}</td><td>${escapeHtml(e.message)}</td></tr>`,
    )
    .join('\n')
  const init = `window.ui = SwaggerUIBundle({ spec: ${specJson}, dom_id: '#ui', deepLinking: true, persistAuthorization: true });`
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${hashOf(init)}`,
    `style-src 'self' ${hashOf(STYLE)}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Slotline API reference</title>
<link rel="stylesheet" href="/-/docs/swagger-ui.css">
<style>${STYLE}</style></head>
<body><div id="ui"></div>
<section id="errors"><h2>Errors</h2><p>Every error answers <code>{message, code, errors, documentation}</code>.
<code>errors</code> maps field keys (<code>data.items.0.path</code>, <code>slots.3.data.link</code>) to messages.</p>
<table><thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead><tbody>
${rows}
</tbody></table></section>
<script src="/-/docs/swagger-ui-bundle.js"></script>
<script>${init}</script>
</body></html>`
  return { html, csp }
}
