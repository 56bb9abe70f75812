import { timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { Config } from '../config.ts'
import { AppError } from '../kernel/errors.ts'
import { parseAddress } from '../kernel/ip-address.ts'

const isLoopback = (address: string | undefined) => !!address && parseAddress(address)?.range() === 'loopback'

/**
 * Who may read /-/metrics (process and per-route figures): with METRICS_TOKEN set, whoever
 * sends it as a bearer token, from anywhere; without it, only a scraper on this host. A
 * request that came through a proxy (Forwarded, X-Forwarded-For) is not "on this host" even
 * though the proxy's socket is loopback.
 */
export function checkMetricsAccess(config: Config, req: FastifyRequest): void {
  if (config.metricsToken) {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1] ?? ''
    const a = Buffer.from(given)
    const b = Buffer.from(config.metricsToken)
    if (a.length !== b.length || !timingSafeEqual(a, b)) {
      throw new AppError('unauthenticated', {
        message: 'Send METRICS_TOKEN as Authorization: Bearer <token> to read metrics.',
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      })
    }
    return
  }
  const proxied = req.headers.forwarded !== undefined || req.headers['x-forwarded-for'] !== undefined
  if (proxied || !isLoopback(req.socket.remoteAddress)) {
    throw new AppError('forbidden', { message: 'Metrics are served to this host only; set METRICS_TOKEN to scrape them from elsewhere.' })
  }
}
