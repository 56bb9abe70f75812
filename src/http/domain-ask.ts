import type { FastifyInstance, FastifyRequest } from 'fastify'
import { trustedProxies } from '../config.ts'
import type { AppContext } from '../context.ts'
import { domains } from '../core/use-cases.ts'
import { normalDomain } from '../domains/domain-names.ts'

const isLoopback = (address: string | undefined) => !!address && (/^(::ffff:)?127\./.test(address) || address === '::1')

/**
 * Caddy's on-demand TLS asks `GET /-/domains/allowed?domain=<name>` before it obtains a
 * certificate: 200 only for an active domain, from one indexed read and no DNS, so a flood of
 * handshakes for made-up names costs a lookup each and no certificate. Only the TLS proxy may
 * ask: loopback or DOMAINS_ASK_FROM, straight from the socket (a request relayed by a proxy,
 * which names a client in its headers, is a visitor's). Everyone else gets the same 404 as for
 * an unknown name. No rate limit applies: the proxy asks for every new name it sees.
 */
export function installDomainAsk(app: FastifyInstance, ctx: AppContext): void {
  const askFrom = trustedProxies(ctx.config.domains.askFrom)
  const mayAsk = (req: FastifyRequest) => {
    if (req.headers.forwarded !== undefined || req.headers['x-forwarded-for'] !== undefined) return false
    const peer = req.socket.remoteAddress
    return isLoopback(peer) || (!!peer && !!askFrom?.(peer, 0))
  }
  app.get<{ Querystring: { domain?: unknown } }>('/-/domains/allowed', async (req, reply) => {
    const raw = req.query.domain
    const name = typeof raw === 'string' && mayAsk(req) ? normalDomain(raw) : undefined
    const allowed = name !== undefined && (await domains.isServed(ctx, name))
    return reply
      .code(allowed ? 200 : 404)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(allowed ? 'allowed\n' : 'not a domain served here\n')
  })
}
