import type { FastifyInstance } from 'fastify'
import { CompiledQuery } from 'kysely'
import type { Registry } from 'prom-client'
import type { AppContext } from '../context.ts'
import { checkMetricsAccess } from './metrics-access.ts'

// Compiled once: probes call this often, and building the query cost more than running it.
const STORE_CHECK = CompiledQuery.raw('SELECT 1')

/** `/-/...`: operational routes live under a segment no login can take. */
export function installOps(app: FastifyInstance, ctx: AppContext, metrics: Registry): void {
  app.get('/-/healthz', async (_req, reply) => {
    const checks: Record<string, string> = {}
    let ok = true
    try {
      await ctx.db.executeQuery(STORE_CHECK)
      checks.store = 'ok'
    } catch (err) {
      ok = false
      checks.store = (err as Error).message
    }
    if (ctx.redis) {
      try {
        await ctx.redis.ping()
        checks.redis = 'ok'
      } catch (err) {
        ok = false
        checks.redis = (err as Error).message
      }
    }
    return reply.code(ok ? 200 : 503).send({ data: { status: ok ? 'ok' : 'unavailable', checks } })
  })
  app.get('/-/metrics', async (req, reply) => {
    checkMetricsAccess(ctx.config, req)
    reply.type(metrics.contentType)
    return metrics.metrics()
  })
}
