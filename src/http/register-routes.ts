import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../context.ts'
import { type Profile, profilesRepository } from '../store/profiles.ts'
import { authenticate } from './auth.ts'
import { AppError } from './errors.ts'
import { beginIdempotent } from './idempotency.ts'
import { isPrecognitive, markPrecognitive, sendPrecognitionSuccess } from './precognition.ts'
import { resolveProfileKey } from './profile-key.ts'
import { applyRateLimit } from './rate-limit.ts'
import { Envelope, type Method, type Principal, type RouteModule, type RouteRow, isWrite } from './routes.ts'

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal
  }
  interface FastifyContextConfig {
    row?: RouteRow
  }
}

class DryRunRollback extends Error {}

export const successStatus = (row: RouteRow) => Number(Object.keys(row.reply)[0])

async function run(ctx: AppContext, row: RouteRow, req: FastifyRequest, reply: FastifyReply) {
  const write = isWrite(row.method)
  const dryRun = write && isPrecognitive(req)
  const params = (req.params ?? {}) as Record<string, string>
  const after: Array<() => void | Promise<void>> = []
  let profile: Profile | undefined
  const exec = async (db: AppContext['db']) => {
    if (params.profileKey !== undefined && req.principal) {
      profile = await resolveProfileKey(db, req.principal.user.id, params.profileKey)
    }
    return row.handler({
      ctx,
      db,
      principal: req.principal as Principal,
      profile: profile as Profile,
      body: req.body as any,
      query: req.query as any,
      params: params as any,
      req,
      reply,
      dryRun,
      afterCommit: (fn) => after.push(fn),
    })
  }

  let result: unknown
  if (write && row.transaction !== false) {
    try {
      result = await ctx.db.transaction().execute(async (trx) => {
        const r = await exec(trx)
        if (dryRun) throw new DryRunRollback()
        return r
      })
    } catch (err) {
      if (err instanceof DryRunRollback) return sendPrecognitionSuccess(reply)
      throw err
    }
  } else {
    result = await exec(ctx.db)
    if (dryRun) return sendPrecognitionSuccess(reply)
  }

  if (write && profile) {
    const changed = profile
    // Caches keyed by address (the public page, QR codes) drop both the login the request
    // found and the one the page has now, so a rename in any write invalidates both at once.
    after.push(async () => {
      const now = await profilesRepository.findById(ctx.db, changed.id)
      const logins = now && now.login !== changed.login ? [changed.login, now.login] : [changed.login]
      ctx.events.emit('profile-changed', { profileId: changed.id, logins })
    })
  }
  for (const fn of after) {
    try {
      await fn()
    } catch (err) {
      req.log.error({ err }, 'after-commit hook failed')
    }
  }

  if (reply.sent) return reply
  const status = reply.statusCode !== 200 && row.raw ? reply.statusCode : successStatus(row)
  reply.code(status)
  if (row.raw) return reply.send(result)
  if (result instanceof Envelope) return reply.send(result.body)
  if (status === 204 || result === undefined) return reply.send()
  return reply.send({ data: result })
}

const ALL_METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** Registers every row of every module, and a 405 for the other methods of each path. */
export function registerRoutes(app: FastifyInstance, ctx: AppContext, modules: RouteModule[]): void {
  const methodsByUrl = new Map<string, Set<Method>>()
  for (const mod of modules) {
    for (const row of mod.rows) {
      const url = mod.prefix + row.url || '/'
      if (!methodsByUrl.has(url)) methodsByUrl.set(url, new Set())
      methodsByUrl.get(url)!.add(row.method)
      app.route({
        method: row.method,
        url,
        config: { row },
        schema: Object.fromEntries(
          Object.entries({ params: row.params, querystring: row.query, body: row.body }).filter(([, v]) => v !== undefined),
        ),
        onRequest: async (req, reply) => {
          if (isWrite(row.method) && isPrecognitive(req)) markPrecognitive(reply)
          if (row.scope === 'public') return
          req.principal = await authenticate(ctx, req, row.scope)
          await applyRateLimit(ctx, reply, row, req.principal.tokenId)
        },
        preValidation: async (req, reply) => {
          if (!isWrite(row.method) || !req.principal || isPrecognitive(req)) return
          if (await beginIdempotent(ctx, req, reply, req.principal.user.id)) return reply
        },
        handler: (req, reply) => run(ctx, row, req, reply),
      })
    }
  }
  for (const [url, methods] of methodsByUrl) {
    const others = ALL_METHODS.filter((m) => !methods.has(m))
    if (!others.length) continue
    const allow = [...methods, ...(methods.has('GET') ? ['HEAD'] : [])].join(', ')
    app.route({
      method: others,
      url,
      handler: async () => {
        throw new AppError('method_not_allowed', { message: `Use ${allow} on this path.`, headers: { Allow: allow } })
      },
    })
  }
}
