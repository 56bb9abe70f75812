import { isIP } from 'node:net'
import { serviceHost } from '../domains/domain-names.ts'

/** The Host header's name: lower-case, no port, no IPv6 brackets; '' when absent. */
export function hostNameOf(header: string | undefined): string {
  if (!header) return ''
  const host = header.toLowerCase()
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'))
  const colon = host.indexOf(':')
  return (colon === -1 ? host : host.slice(0, colon)).replace(/\.$/, '')
}

/**
 * Tells the service's own host from the rest. Its own: PUBLIC_URL's host, an address written
 * out (the service reached directly, a health check, the TLS proxy's ask) or localhost. Any
 * other name is a custom domain, served only while active, else a plain 404.
 */
export function serviceHostTest(publicUrl: () => string): (host: string) => boolean {
  let url = ''
  let own = ''
  return (host) => {
    // PUBLIC_URL is final once the server listens (PORT=0 in tests): read, then kept until it changes.
    const now = publicUrl()
    if (now !== url) {
      url = now
      own = serviceHost(now)
    }
    return host === own || host === '' || host === 'localhost' || isIP(host) !== 0
  }
}
