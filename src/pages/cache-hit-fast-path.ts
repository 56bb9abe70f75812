import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'

export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean

/**
 * Puts `serve` in front of Fastify on the app's own server: a request it answers (returns true)
 * never reaches the router; every other request goes to Fastify untouched. Public page cache
 * hits are the hottest path of the service and need nothing Fastify adds (parsing, hooks,
 * per-request loggers), which costs more than the hit itself (bench/public-page.ts).
 */
export function serveBeforeFastify(app: FastifyInstance, serve: FastPath): void {
  const server = app.server
  const [fastify, ...others] = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>
  if (!fastify || others.length) throw new Error('expected exactly one request listener (Fastify) on the server')
  server.removeListener('request', fastify)
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!serve(req, res)) fastify(req, res)
  })
}
