/** RFC 8252 §8.3: loopback redirects use IP literals; `localhost` may resolve elsewhere. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]'])

const isLoopbackHttp = (u: URL) => u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname)

/** A DNS name in ASCII (after IDNA): labels of letters, digits and hyphens. */
const DNS_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/

/**
 * Why a redirect URI cannot be registered (undefined when it can). OAuth 2.1 §2.3.1 and RFC
 * 8252: https anywhere; http only on a loopback IP literal, where native apps listen on a port of
 * the moment; or a private-use scheme for native apps (reverse-DNS, so it contains a dot). Never a
 * fragment, credentials or a scheme a browser would run. The WHATWG parser repairs what it is
 * given (`https:///cb` and `https:cb` both become `https://cb/`, tabs and newlines vanish, `\` is
 * `/`), so the text itself must already be well formed: what is registered is what was meant.
 */
export function redirectUriProblem(raw: string): string | undefined {
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(raw)) return `${JSON.stringify(raw)} contains a space, a control character or a backslash.`
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return `${JSON.stringify(raw)} is not an absolute URI.`
  }
  if (u.hash || raw.includes('#')) return `${raw} must not contain a fragment.`
  if (u.username || u.password) return `${raw} must not contain a user name or password.`
  if (u.protocol === 'https:' || u.protocol === 'http:') {
    if (!/^https?:\/\/[^/?#@]/i.test(raw)) return `${raw} must name its host right after ${u.protocol}// (as in https://app.example/callback).`
    const host = u.hostname
    if (host === 'localhost' || host.endsWith('.localhost')) return `${raw}: use the loopback address 127.0.0.1 or [::1] rather than localhost (RFC 8252 §8.3).`
    if (!DNS_NAME.test(host) && !IPV4.test(host) && !/^\[[0-9a-f:.]+\]$/.test(host)) return `${raw} does not have a valid host name.`
    if (u.protocol === 'https:') return undefined
    return isLoopbackHttp(u) ? undefined : `${raw}: plain http is allowed only on loopback (127.0.0.1 or [::1]); use https.`
  }
  const scheme = u.protocol.slice(0, -1)
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/.test(scheme)) return undefined
  return `${raw}: the scheme must be https, http on loopback, or a private-use scheme in reverse-domain form (com.example.app:/callback).`
}

/**
 * A registered redirect URI in the parser's normal form (host lower-cased, default port dropped,
 * an empty path written `/`, percent-encoding as the parser writes it): what is stored and
 * answered, and what an authorization request's redirect_uri must then equal exactly.
 */
export const normalRedirectUri = (raw: string) => new URL(raw).href

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
