import { createHash } from 'node:crypto'
import type { OAuthClient, OAuthGrant } from '../store/oauth.ts'
import { covers } from './scopes.ts'

/** One approval: the way back, the audience and the scopes the user saw on the consent page. */
interface Consented {
  redirect: string
  resource: string
  scopes: string[]
}

/**
 * A loopback redirect may come back on any port (RFC 8252 §7.3), so its approval is kept without
 * the port; every other redirect is kept as it was approved.
 */
function redirectKey(redirectUri: string): string {
  const u = new URL(redirectUri)
  if (u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === '[::1]')) u.port = ''
  return u.href
}

/** The client's redirect URIs as one digest: a metadata document that changes them changes it. */
export const redirectsDigest = (client: OAuthClient) =>
  createHash('sha256')
    .update(JSON.stringify([...client.redirectUris].sort()))
    .digest('hex')

function approvals(grant: OAuthGrant, client: OAuthClient): Consented[] {
  if (!grant.consented || grant.clientRedirects !== redirectsDigest(client)) return []
  try {
    const list = JSON.parse(grant.consented) as unknown
    return Array.isArray(list) ? (list as Consented[]) : []
  } catch {
    return []
  }
}

/**
 * Remembered consent covers a request only for the same client, redirect URI and resource, with no
 * more scopes than were approved for them, and only while the client's registered redirect URIs
 * are those the user saw (RFC 9700 §2.1; a metadata-document client can change its own).
 */
export function consentCovers(grant: OAuthGrant, client: OAuthClient, request: { redirectUri: string; resource: string; scopes: readonly string[] }): boolean {
  const key = redirectKey(request.redirectUri)
  return approvals(grant, client).some((a) => a.redirect === key && a.resource === request.resource && covers(a.scopes, request.scopes))
}

/** Whether the user ever approved this client sending them back to this redirect URI (any resource or scopes). */
export function redirectApproved(grant: OAuthGrant, client: OAuthClient, redirectUri: string): boolean {
  const key = redirectKey(redirectUri)
  return approvals(grant, client).some((a) => a.redirect === key)
}

/** The grant's approvals with this one added (scopes merged for the same redirect and resource). */
export function withApproval(
  grant: OAuthGrant | undefined,
  client: OAuthClient,
  request: { redirectUri: string; resource: string; scopes: readonly string[] },
): { consented: string; clientRedirects: string } {
  const key = redirectKey(request.redirectUri)
  const list = grant ? approvals(grant, client) : []
  const same = list.find((a) => a.redirect === key && a.resource === request.resource)
  const next = same
    ? list.map((a) => (a === same ? { ...a, scopes: [...new Set([...a.scopes, ...request.scopes])] } : a))
    : [...list, { redirect: key, resource: request.resource, scopes: [...request.scopes] }]
  return { consented: JSON.stringify(next.slice(-20)), clientRedirects: redirectsDigest(client) }
}
