import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../context.ts'
import { authenticate } from './auth.ts'
import { AppError } from '../kernel/errors.ts'
import { beginIdempotent } from './idempotency.ts'
import { multipartScope } from './multipart-scope.ts'
import { envelopeJson } from './presented-json.ts'
import { isPrecognitive, markPrecognitive, sendPrecognitionSuccess } from './precognition.ts'
import { applyRateLimit, enforceAddressLimit } from './rate-limit-hooks.ts'
import { Envelope, type Method, type Principal, type RouteModule, type RouteRow, isWrite } from './routes.ts'

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal
  }
  interface FastifyContextConfig {
    row?: RouteRow
  }
}

export const successStatus = (row: RouteRow) => Number(Object.keys(row.reply)[0])

/**
 * One call of the row's handler, which calls one use case: ownership, the ability, the
 * transaction and the page-cache event are the use case's. What stays here is HTTP's own:
 * Precognition (the dry run's 204) and the envelope.
 */
async function run(ctx: AppContext, modules: readonly RouteModule[], row: RouteRow, req: FastifyRequest, reply: FastifyReply) {
  const dryRun = isWrite(row.method) && isPrecognitive(req)
  const result = await row.handler({
    ctx,
    principal: req.principal as Principal,
    body: req.body as any,
    query: req.query as any,
    params: (req.params ?? {}) as any,
    req,
    reply,
    dryRun,
    modules,
  })
  // A dry run that has something to say (an import's plan) answers it itself.
  if (dryRun) return reply.sent ? reply : sendPrecognitionSuccess(reply)
  if (reply.sent) return reply
  const status = reply.statusCode !== 200 && row.raw ? reply.statusCode : successStatus(row)
  reply.code(status)
  if (row.raw) return reply.send(result)
  if (result instanceof Envelope) return reply.send(result.body)
  if (status === 204 || result === undefined) return reply.send()
  const json = envelopeJson(result)
  if (json !== undefined) return reply.type('application/json; charset=utf-8').send(json)
  return reply.send({ data: result })
}

const ALL_METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/**
 * Registers every row of every module, and a 405 for the other methods of each path. Rows that
 * take files are registered in a scope that reads multipart (multipart-scope.ts); the others
 * refuse a multipart body with a 415, as any type they do not take.
 */
export function registerRoutes(app: FastifyInstance, ctx: AppContext, modules: RouteModule[]): void {
  const methodsByUrl = new Map<string, Set<Method>>()
  const fileRows: Array<[url: string, row: RouteRow]> = []
  for (const mod of modules) {
    for (const row of mod.rows) {
      const url = mod.prefix + row.url || '/'
      if (!methodsByUrl.has(url)) methodsByUrl.set(url, new Set())
      methodsByUrl.get(url)!.add(row.method)
      if (row.multipart) fileRows.push([url, row])
      else registerRow(app, ctx, modules, url, row)
    }
  }
  if (fileRows.length) {
    multipartScope(app, (scope) => {
      for (const [url, row] of fileRows) registerRow(scope, ctx, modules, url, row)
    })
  }
  for (const [url, methods] of methodsByUrl) {
    const others = ALL_METHODS.filter((m) => !methods.has(m))
    if (!others.length) continue
    const allow = [...methods, ...(methods.has('GET') ? ['HEAD'] : [])].join(', ')
    app.route({
      method: others,
      url,
      // Refused from the request head: whatever body came is not read, whatever its type.
      onRequest: async () => {
        throw new AppError('method_not_allowed', { message: `Use ${allow} on this path.`, headers: { Allow: allow } })
      },
      handler: async () => {},
    })
  }
}

function registerRow(app: FastifyInstance, ctx: AppContext, modules: readonly RouteModule[], url: string, row: RouteRow): void {
  app.route({
    method: row.method,
    url,
    config: { row },
    schema: Object.fromEntries(Object.entries({ params: row.params, querystring: row.query, body: row.body }).filter(([, v]) => v !== undefined)),
    onRequest: async (req, reply) => {
      if (isWrite(row.method) && isPrecognitive(req)) markPrecognitive(reply)
      if (row.scope === 'public') return enforceAddressLimit(ctx, req, reply, 'requests')
      req.principal = await authenticate(ctx, req, row.scope).catch(async (err) => {
        // Without a valid token there is no token to count against: the address is.
        if (err instanceof AppError && err.code === 'unauthenticated') await enforceAddressLimit(ctx, req, reply, 'requests')
        throw err
      })
      await applyRateLimit(ctx, reply, row, req.principal)
    },
    preValidation: async (req, reply) => {
      if (!isWrite(row.method) || !req.principal || isPrecognitive(req)) return
      if (await beginIdempotent(ctx, req, reply, req.principal.user.id)) return reply
    },
    handler: (req, reply) => run(ctx, modules, row, req, reply),
  })
}
