import { type Principal, requireOwnerInPerson } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { oauthRepository } from '../store/oauth.ts'
import { notFound } from '../kernel/errors.ts'

/** One application the user authorised through OAuth: a row of the dashboard's connected apps. */
export interface ConnectedApp {
  /** What disconnect names (the grant's id, unique per user). */
  grantId: number
  /** The name the client registered (shown as text, never trusted as markup). */
  name: string
  clientId: string
  /** The client's metadata document URL, for clients identified by one. */
  metadataUrl: string | null
  /**
   * The hosts its redirect addresses name: where the person was sent back after approving, which
   * tells two applications of one name apart (a name is whatever the application registered).
   */
  redirectHosts: string[]
  scopes: string[]
  authorisedAt: string
  lastUsedAt: string | null
}

// Grants are the owner's to see and end in person: an app must not be able to list or
// disconnect the others (requireOwnerInPerson).

/** The applications holding a grant on the account. */
async function list(ctx: AppContext, principal: Principal): Promise<ConnectedApp[]> {
  requireOwnerInPerson(principal)
  const rows = await oauthRepository.listGrantsWithClients(ctx.db, principal.user.id)
  return rows.map((r) => ({
    grantId: r.id,
    name: r.name,
    clientId: r.client_id,
    metadataUrl: r.metadata_url,
    redirectHosts: hostsOf(r.redirect_uris),
    scopes: r.scopes.split(' ').filter(Boolean),
    authorisedAt: r.created_at,
    lastUsedAt: r.last_used_at,
  }))
}

function hostsOf(redirectUris: string): string[] {
  const hosts = (JSON.parse(redirectUris) as string[]).flatMap((uri) => {
    try {
      return [new URL(uri).host || new URL(uri).protocol.replace(/:$/, '')]
    } catch {
      return []
    }
  })
  return [...new Set(hosts)]
}

/**
 * spec, Authentication 6: the app's very next request fails. The grant goes and every token
 * and code issued under it with it; another account's grant is not_found.
 */
async function disconnect(ctx: AppContext, principal: Principal, input: { grantId: number }): Promise<void> {
  requireOwnerInPerson(principal)
  if (!(await oauthRepository.deleteGrant(ctx.db, principal.user.id, input.grantId))) throw notFound('application')
  await ctx.verifiedTokens.changed(principal.user.id)
}

export const grantUseCases = Object.freeze({ list, disconnect })
