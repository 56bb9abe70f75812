import type { FastifyInstance } from 'fastify'
import type { Registry } from 'prom-client'
import type { AppContext } from '../context.ts'

/**
 * A route pattern as people read it: `/:login(^[a-zA-Z0-9._]{4,60}$)` becomes `/:login`. The
 * pattern, never the raw URL, so logins and ids cannot explode the label set.
 */
export function readableRoute(pattern: string | undefined): string {
  if (!pattern) return 'unmatched'
  let out = ''
  let depth = 0
  for (const c of pattern) {
    if (c === '(') depth++
    else if (c === ')') depth--
    else if (depth === 0) out += c
  }
  return out
}

/** Prometheus metrics: requests and latency by route pattern and status, and the HTTP-level business counters. */
export function installMetrics(app: FastifyInstance, ctx: AppContext, counted = true): Registry {
  const metrics = ctx.metrics
  if (!counted) return metrics.registry
  const labelOf = new Map<string | undefined, string>()
  app.addHook('onResponse', (req, reply, done) => {
    const pattern = req.routeOptions.url
    let route = labelOf.get(pattern)
    if (route === undefined) {
      route = readableRoute(pattern)
      labelOf.set(pattern, route)
    }
    const status = reply.statusCode
    const labels = { method: req.method, route, status }
    metrics.httpLatency.observe(labels, reply.elapsedTime / 1000)
    metrics.httpRequests.inc(labels)
    if (status === 429) metrics.rateLimitRefusals.inc({ route })
    const replayed = reply.getHeader('idempotent-replayed') === 'true'
    if (replayed) metrics.idempotentReplays.inc()
    else if (
      status >= 200 &&
      status < 300 &&
      req.method !== 'GET' &&
      req.method !== 'HEAD' &&
      route.includes('/slots') &&
      reply.getHeader('precognition-success') === undefined
    ) {
      metrics.slotWrites.inc({ method: req.method, route })
    }
    done()
  })
  return metrics.registry
}
