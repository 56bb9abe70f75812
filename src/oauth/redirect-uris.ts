const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

const isLoopbackHttp = (u: URL) => u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname)

/**
 * Why a redirect URI cannot be registered (undefined when it can). OAuth 2.1 §2.3.1 and RFC
 * 8252: https anywhere; http only on loopback, where native apps listen on a port of the
 * moment; or a private-use scheme for native apps (reverse-DNS, so it contains a dot). Never a
 * fragment, never a scheme a browser would run.
 */
export function redirectUriProblem(raw: string): string | undefined {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return `${JSON.stringify(raw)} is not an absolute URI.`
  }
  if (u.hash || raw.includes('#')) return `${raw} must not contain a fragment.`
  if (u.protocol === 'https:') return u.hostname ? undefined : `${raw} has no host.`
  if (u.protocol === 'http:') {
    return isLoopbackHttp(u) ? undefined : `${raw}: plain http is allowed only on loopback (127.0.0.1, [::1], localhost); use https.`
  }
  const scheme = u.protocol.slice(0, -1)
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/.test(scheme)) return undefined
  return `${raw}: the scheme must be https, http on loopback, or a private-use scheme in reverse-domain form (com.example.app:/callback).`
}

/**
 * RFC 8252 §7.3: for a loopback redirect any port matches, since the app picks one when it
 * starts; every other redirect must match a registered one exactly (OAuth 2.1 §4.1.1).
 */
export function redirectMatches(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true
  let g: URL
  try {
    g = new URL(given)
  } catch {
    return false
  }
  if (!isLoopbackHttp(g)) return false
  return registered.some((r) => {
    const u = new URL(r)
    return isLoopbackHttp(u) && u.hostname === g.hostname && u.pathname === g.pathname && u.search === g.search
  })
}
