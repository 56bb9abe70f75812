import type { FastifyInstance } from 'fastify'
import type { Registry } from 'prom-client'
import type { AppContext } from '../context.ts'
import { pingStore } from '../store/db.ts'
import { checkMetricsAccess } from './metrics-access.ts'

/** The answer when every check passed, encoded once: probes ask often and it never changes. */
const healthy = (withRedis: boolean) => JSON.stringify({ data: { status: 'ok', checks: withRedis ? { store: 'ok', redis: 'ok' } : { store: 'ok' } } })

/** `/-/...`: operational routes live under a segment no login can take. */
export function installOps(app: FastifyInstance, ctx: AppContext, metrics: Registry): void {
  const allWell = healthy(ctx.redis !== undefined)
  app.get('/-/healthz', async (_req, reply) => {
    const store = await problemOf(() => pingStore(ctx.db))
    const redis = ctx.redis && (await problemOf(() => ctx.redis!.ping()))
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

/** What went wrong with a check, or undefined when it passed. */
async function problemOf(check: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await check()
  } catch (err) {
    return (err as Error).message
  }
}
