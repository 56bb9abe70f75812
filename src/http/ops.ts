import type { FastifyInstance } from 'fastify'
import type { Registry } from 'prom-client'
import type { AppContext } from '../context.ts'
import { connectionProblems } from '../connections.ts'
import { checkMetricsAccess } from './metrics-access.ts'

/** The answer when every check passed, encoded once: probes ask often and it never changes. */
const healthy = (withRedis: boolean) => JSON.stringify({ data: { status: 'ok', checks: withRedis ? { store: 'ok', redis: 'ok' } : { store: 'ok' } } })

/** `/-/...`: operational routes live under a segment no login can take. */
export function installOps(app: FastifyInstance, ctx: AppContext, metrics: Registry): void {
  const allWell = healthy(ctx.redis !== undefined)
  app.get('/-/healthz', async (_req, reply) => {
    const { store, redis } = await connectionProblems(ctx.db, ctx.redis)
    if (store === undefined && redis === undefined) return reply.type('application/json; charset=utf-8').send(allWell)
    const checks: Record<string, string> = { store: store ?? 'ok' }
    if (ctx.redis) checks.redis = redis ?? 'ok'
    return reply.code(503).send({ data: { status: 'unavailable', checks } })
  })
  app.get('/-/metrics', async (req, reply) => {
    checkMetricsAccess(ctx.config, req)
    reply.type(metrics.contentType)
    return metrics.metrics()
  })
}

