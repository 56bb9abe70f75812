import proxyAddr from '@fastify/proxy-addr'

/** Whether the peer at this hop (0: the socket's) is a proxy whose X-Forwarded-For is believed. */
export type TrustedProxy = (address: string, hop: number) => boolean

/**
 * TRUST_PROXY's entries (addresses, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`) as
 * one test; none: no proxy is trusted. Throws on an entry that is neither. Here rather than in
 * http/, because the configuration checks each entry when it is read.
 */
export function trustedProxies(entries: readonly string[]): TrustedProxy | undefined {
  return entries.length ? proxyAddr.compile([...entries]) : undefined
}
