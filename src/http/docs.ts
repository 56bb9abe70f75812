import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildOpenApi } from './openapi.ts'
import type { AppContext } from '../context.ts'
import { errorTable } from './errors.ts'
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
  const assets: Record<string, { type: string; body: Buffer }> = {
    'swagger-ui.css': { type: 'text/css; charset=utf-8', body: readFileSync(join(uiDir, 'swagger-ui.css')) },
    'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(join(uiDir, 'swagger-ui-bundle.js')) },
  }
  app.get('/-/docs/:asset', async (req, reply) => {
    const asset = assets[(req.params as { asset: string }).asset]
    if (!asset) return reply.callNotFound()
    return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(asset.body)
  })

  let page: string | undefined
  app.get('/v1/docs', async (_req, reply) => {
    page ??= render(JSON.stringify(buildOpenApi(ctx.config, modules)).replace(/</g, '\\u003c'))
    return reply.type('text/html; charset=utf-8').send(page)
  })
}

function render(specJson: string): string {
  const rows = Object.entries(errorTable)
    .map(
      ([code, e]) =>
        `<tr id="error-${code}"><td><code>${code}</code></td><td>${e.status}</td><td>${escapeHtml(e.message)}</td></tr>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Slotline API reference</title>
<link rel="stylesheet" href="/-/docs/swagger-ui.css">
<style>body{margin:0;font-family:system-ui,sans-serif}#errors{max-width:1400px;margin:2rem auto;padding:0 20px}
#errors table{border-collapse:collapse;width:100%}#errors td,#errors th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}
#errors tr:target{background:#fff6d5}</style></head>
<body><div id="ui"></div>
<section id="errors"><h2>Errors</h2><p>Every error answers <code>{message, code, errors, documentation}</code>.
<code>errors</code> maps field keys (<code>data.items.0.path</code>, <code>slots.3.data.link</code>) to messages.</p>
<table><thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead><tbody>
${rows}
</tbody></table></section>
<script src="/-/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ spec: ${specJson}, dom_id: '#ui', deepLinking: true, persistAuthorization: true });</script>
</body></html>`
}
