import type { AppContext } from '../context.ts'
import { oauthRepository } from '../store/oauth.ts'
import { redirectMatches } from './redirect-uris.ts'

/** CSP 3 §2.3.1 host-source without wildcards: labels of ALPHA / DIGIT / "-", an optional port. */
const HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i
/** CSP 3 scheme-source: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ). */
const SCHEME = /^[a-z][a-z0-9+.-]*:$/i

/**
 * A redirect URI as a CSP source (its origin, or its private-use scheme), or undefined when it
 * cannot be written in the CSP grammar: a host holding `;` or a space would otherwise end the
 * directive and start one of the sender's choosing (`https://a.com;sandbox`). An IPv6 literal has
 * no host-source form either.
 */
export function cspSourceOf(redirectUri: string): string | undefined {
  let u: URL
  try {
    u = new URL(redirectUri)
  } catch {
    return undefined
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return SCHEME.test(u.protocol) ? u.protocol : undefined
  if (!HOST.test(u.hostname)) return undefined
  return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`
}

/**
 * Where a sign-in whose `next` is an authorization request may end up: a remembered consent
 * redirects straight on to the application, and browsers hold that whole redirect chain to the
 * sign-in form's form-action. The source comes from the client as registered (the request's
 * redirect_uri must be one it registered); a query alone never adds one. A client only described
 * by a metadata document not fetched yet adds none (the browser then shows our consent page).
 */
export async function authorizationFormActions(ctx: AppContext, next: string): Promise<string[]> {
  if (!next.startsWith('/oauth/authorize?')) return []
  const query = new URLSearchParams(next.slice(next.indexOf('?') + 1))
  const clientId = query.get('client_id')
  if (!clientId || query.getAll('client_id').length !== 1 || query.getAll('redirect_uri').length > 1) return []
  const client = await oauthRepository.findClient(ctx.db, clientId)
  if (!client) return []
  const uri = query.get('redirect_uri') ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined)
  if (!uri || !redirectMatches(client.redirectUris, uri)) return []
  const source = cspSourceOf(uri)
  return source ? [source] : []
}
