import type { AppContext } from '../context.ts'
import { AppError } from '../kernel/errors.ts'
import { tokensRepository } from '../store/tokens.ts'
import { oauthRepository } from '../store/oauth.ts'
import { type Ability, type Principal, can } from './principal.ts'
import type { VerifiedToken } from './verified-tokens.ts'
import { digestsEqual, isTokenShaped, sha256 } from './secrets.ts'

/** The two protected resources (RFC 9728): the REST API and the agent connector. */
export type Audience = 'v1' | 'mcp'

/** A principal as a resource server needs it: when the credential ends and whom it was for. */
export interface BearerPrincipal extends Principal {
  /** OAuth access tokens: expiry in seconds since the epoch. Personal tokens never expire. */
  expiresAt?: number
  /** OAuth access tokens: the audience they were issued for (RFC 8707). */
  resource?: string
}

export const resourceUrl = (ctx: AppContext, audience: Audience) => `${ctx.config.publicUrl}/${audience}`
export const resourceMetadataUrl = (ctx: AppContext, audience: Audience) => `${ctx.config.publicUrl}/.well-known/oauth-protected-resource/${audience}`

/** RFC 6750 §3 / RFC 9728 §5.1: every refusal tells the client where to start the OAuth dance. */
function challenge(ctx: AppContext, audience: Audience, params: Record<string, string>): string {
  const all = { ...params, resource_metadata: resourceMetadataUrl(ctx, audience) }
  return `Bearer ${Object.entries(all)
    .map(([k, v]) => `${k}="${v}"`)
    .join(', ')}`
}

const issueAt = (ctx: AppContext) => `${ctx.config.publicUrl}/settings/tokens`

/** 401 invalid_token: the token was there, and is no good. */
const invalid = (ctx: AppContext, audience: Audience, message: string) =>
  new AppError('unauthenticated', { message, headers: { 'WWW-Authenticate': challenge(ctx, audience, { error: 'invalid_token' }) } })

const revoked = (ctx: AppContext, audience: Audience) =>
  invalid(ctx, audience, `The token is invalid, expired or has been revoked; issue a new one at ${issueAt(ctx)}, or sign in again through OAuth.`)

// lastUsedAt is recorded at most once a minute per token, so reads stay reads.
const TOUCH_EVERY_MS = 60_000

/**
 * One verifier for every face (REST and /mcp): the Authorization header's bearer token →
 * the principal, or a 401 carrying the challenge. Personal tokens (slp_) are good for both
 * audiences; OAuth access tokens (slo_) only for the audience they were issued for, or for the
 * whole origin when the client asked for no narrower resource.
 */
export async function verifyBearer(ctx: AppContext, header: string | undefined, audience: Audience): Promise<BearerPrincipal> {
  if (!header) {
    throw new AppError('unauthenticated', {
      message: `Send a token as Authorization: Bearer <token>; issue one at ${issueAt(ctx)}, or connect through OAuth.`,
      headers: { 'WWW-Authenticate': challenge(ctx, audience, { scope: 'profile:read profile:write' }) },
    })
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match) throw invalid(ctx, audience, 'The Authorization header must be "Bearer <token>".')
  const raw = match[1]
  if (!isTokenShaped(raw)) throw revoked(ctx, audience)
  const hash = sha256(raw)
  const verified = (await ctx.verifiedTokens.get(hash)) ?? (await readToken(ctx, hash))
  if (!verified) throw revoked(ctx, audience)
  const { token, user, grant } = verified
  const expected = token.kind === 'personal' ? 'slp_' : token.kind === 'access' ? 'slo_' : undefined
  if (!expected || !raw.startsWith(expected)) throw revoked(ctx, audience)
  const now = Date.now()
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) throw invalid(ctx, audience, 'The access token has expired; use the refresh token for a new one.')
  if (token.resource && token.resource !== ctx.config.publicUrl && token.resource !== resourceUrl(ctx, audience)) {
    throw invalid(ctx, audience, `This access token was issued for ${token.resource}, not for ${resourceUrl(ctx, audience)}.`)
  }
  const principal: BearerPrincipal = { user, tokenId: token.id, abilities: token.abilities, accountRevision: verified.revision }
  if (token.kind === 'access' && token.grantId !== null) {
    if (!grant) throw revoked(ctx, audience)
    principal.clientId = grant.clientId
    principal.grantId = grant.id
    principal.expiresAt = token.expiresAt ? Math.floor(Date.parse(token.expiresAt) / 1000) : undefined
    principal.resource = token.resource ?? undefined
  }
  if (verified.touchedAt < now - TOUCH_EVERY_MS) {
    verified.touchedAt = now
    if (grant) await oauthRepository.touchGrant(ctx.db, grant.id)
    await tokensRepository.touch(ctx.db, token.id)
  }
  return principal
}

/**
 * The token, its owner and (OAuth) its grant from the database, kept in ctx.verifiedTokens
 * under the owner's credentials revision as read before the rows (verified-tokens.ts says why).
 */
async function readToken(ctx: AppContext, hash: string): Promise<(VerifiedToken & { revision?: string }) | undefined> {
  const owner = await tokensRepository.findOwner(ctx.db, hash)
  if (owner === undefined) return undefined
  const revision = await ctx.verifiedTokens.revisionOf(owner)
  const found = await tokensRepository.findWithUser(ctx.db, hash)
  // The lookup is by digest; the comparison is constant-time all the same.
  if (!found || !digestsEqual(found.token.tokenHash, hash)) return undefined
  const grant = found.token.grantId === null ? undefined : await oauthRepository.findGrantById(ctx.db, found.token.grantId)
  const usedAt = (at: string | null | undefined) => (at ? Date.parse(at) : 0)
  const touchedAt = grant ? Math.min(usedAt(found.token.lastUsedAt), usedAt(grant.lastUsedAt)) : usedAt(found.token.lastUsedAt)
  const verified: VerifiedToken = { ...found, grant, touchedAt }
  if (revision === undefined || found.user.id !== owner) return verified
  ctx.verifiedTokens.put(hash, revision, verified)
  return { ...verified, revision }
}

/** 403 with the RFC 6750 insufficient_scope challenge naming the scope to ask for (step-up). */
export function requireScope(ctx: AppContext, principal: Principal, ability: Ability, audience: Audience): void {
  if (can(principal, ability)) return
  throw new AppError('forbidden', {
    message: `This token lacks the ${ability} ability needed here.`,
    headers: { 'WWW-Authenticate': challenge(ctx, audience, { error: 'insufficient_scope', scope: ability }) },
  })
}
