import type { FastifyInstance } from 'fastify'
import type { Registry } from 'prom-client'
import type { AppContext } from '../context.ts'
import { checkMetricsAccess } from './metrics-access.ts'

/** The answer when every check passed, encoded once: probes ask often and it never changes. */
const healthy = (withRedis: boolean) => JSON.stringify({ data: { status: 'ok', checks: withRedis ? { store: 'ok', redis: 'ok' } : { store: 'ok' } } })

/** What a health check finds wrong with the store and Redis; nothing when both answer. */
export type ConnectionCheck = () => Promise<{ store?: string; redis?: string }>

/**
 * `/-/...`: operational routes live under a segment no login can take. The assembly hands over
 * the connection check, so the HTTP layer does not reach into the store.
 */
export function installOps(app: FastifyInstance, ctx: AppContext, metrics: Registry, connectionProblems: ConnectionCheck): void {
  const allWell = healthy(ctx.redis !== undefined)
  app.get('/-/healthz', async (_req, reply) => {
    const { store, redis } = await connectionProblems()
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
