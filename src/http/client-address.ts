import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import type { TrustedProxy } from '../config.ts'

export { type TrustedProxy, trustedProxies } from '../config.ts'

/**
 * The address a request came from. Behind a reverse proxy (TLS termination, a load balancer) the
 * socket's peer is the proxy for every visitor, so per-address limits and visitor counts read
 * X-Forwarded-For instead: from the right, past each trusted hop, to the first address that is
 * not a trusted proxy. The same library and test as Fastify's req.ip (buildApp hands it the same
 * `trust`), so the public page's fast path and the routes agree.
 */
export function clientAddress(req: IncomingMessage, trust: TrustedProxy | undefined): string {
  if (!trust) return req.socket.remoteAddress ?? ''
  const hops = proxyAddr.all(req, trust)
  return hops[hops.length - 1] ?? ''
}
