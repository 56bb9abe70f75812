import { randomBytes } from 'node:crypto'
import type { Ability } from '../auth/principal.ts'
import { ACCESS_TOKEN_PREFIX, generateToken, REFRESH_TOKEN_PREFIX, sha256 } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { type Db, inTransaction } from '../store/db.ts'
import { type OAuthClient, type OAuthGrant, oauthRepository } from '../store/oauth.ts'
import { tokensRepository } from '../store/tokens.ts'
import { oauthClients } from './clients.ts'
import { OAuthError } from './oauth-error.ts'
import { consentCovers, withApproval } from './consent.ts'
import { isS256Challenge, verifierMatches } from './pkce.ts'
import { redirectMatches } from './redirect-uris.ts'
import { seal, unseal } from './sealed-pair.ts'
import { covers, parseScopes } from './scopes.ts'

/** Codes live 60 s, access tokens an hour; refresh tokens rotate, with a short grace. */
const CODE_TTL_MS = 60_000
const ACCESS_TTL_S = 3600
const REFRESH_TTL_MS = 30 * 86_400_000
const REFRESH_GRACE_MS = 5_000

export interface AuthorizationRequest {
  client: OAuthClient
  redirectUri: string
  state: string | undefined
  codeChallenge: string
  scopes: Ability[]
  resource: string
}

/** What /oauth/authorize can do with a request: show an error page, redirect back, or go on. */
export type Checked =
  | { kind: 'page'; message: string }
  | { kind: 'redirect'; to: string; client: OAuthClient; redirectUri: string; message: string }
  | { kind: 'ok'; request: AuthorizationRequest }

type Query = Record<string, string | string[] | undefined>

const one = (q: Query, name: string): string | undefined => {
  const v = q[name]
  if (Array.isArray(v)) throw new OAuthError('invalid_request', `${name} may be sent once.`)
  return v
}

/** RFC 9207: the issuer rides along on every redirect back, so a client can tell servers apart. */
export function redirectBack(ctx: AppContext, redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri)
  for (const [k, v] of Object.entries({ ...params, iss: ctx.config.publicUrl })) if (v !== undefined) url.searchParams.set(k, v)
  return url.href
}

/** RFC 8707: the audiences a token can be for: the API, the connector, or the whole origin. */
function audienceOf(ctx: AppContext, resource: string | undefined): string {
  const origin = ctx.config.publicUrl
  if (resource === undefined) return origin
  const r = resource.replace(/\/+$/, '')
  if ([origin, `${origin}/v1`, `${origin}/mcp`].includes(r)) return r
  throw new OAuthError('invalid_target', `resource must be ${origin}/mcp (the connector), ${origin}/v1 (the API) or ${origin}.`)
}

/**
 * OAuth 2.1 §4.1.2.1: until the client and its redirect are known, errors are shown to the
 * user, never redirected; after that, they may go back with state. Anyone can register a client,
 * so the page decides whether this client is trusted enough to be redirected to (consentPages).
 */
export async function checkAuthorization(ctx: AppContext, q: Query): Promise<Checked> {
  let client: OAuthClient
  let redirectUri: string
  try {
    client = await oauthClients.resolve(ctx, one(q, 'client_id'))
    const given = one(q, 'redirect_uri')
    if (given === undefined && client.redirectUris.length !== 1) throw new OAuthError('invalid_request', 'redirect_uri is required.')
    redirectUri = given ?? client.redirectUris[0]
    if (!redirectMatches(client.redirectUris, redirectUri)) {
      throw new OAuthError('invalid_request', 'redirect_uri is not one this application registered.')
    }
  } catch (err) {
    if (err instanceof OAuthError) return { kind: 'page', message: err.description }
    throw err
  }
  const state = typeof q.state === 'string' ? q.state : undefined
  try {
    if (one(q, 'response_type') !== 'code') throw new OAuthError('unsupported_response_type', 'response_type must be code.')
    const challenge = one(q, 'code_challenge')
    if (!challenge) throw new OAuthError('invalid_request', 'code_challenge is required (PKCE, method S256).')
    if (one(q, 'code_challenge_method') !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256; plain is not accepted.')
    if (!isS256Challenge(challenge)) throw new OAuthError('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters).')
    const scopes = parseScopes(one(q, 'scope'))
    const resource = audienceOf(ctx, one(q, 'resource'))
    return { kind: 'ok', request: { client, redirectUri, state, codeChallenge: challenge, scopes, resource } }
  } catch (err) {
    if (err instanceof OAuthError) {
      return {
        kind: 'redirect',
        to: redirectBack(ctx, redirectUri, { error: err.error, error_description: err.description, state }),
        client,
        redirectUri,
        message: err.description,
      }
    }
    throw err
  }
}

/**
 * Consent given once is remembered: the same client, sending the user back to the same place,
 * for the same resource, asking for no more, skips the page (consent.ts says what "same" is).
 */
export async function rememberedGrant(ctx: AppContext, userId: number, request: AuthorizationRequest): Promise<OAuthGrant | undefined> {
  const grant = await oauthRepository.findGrant(ctx.db, userId, request.client.clientId)
  return grant && covers(grant.scopes, request.scopes) && consentCovers(grant, request.client, request) ? grant : undefined
}

/** The user approved: the grant (widened to what was asked), a 60-second code, the way back. */
export async function approve(ctx: AppContext, userId: number, request: AuthorizationRequest): Promise<string> {
  const code = randomBytes(32).toString('base64url')
  await inTransaction(ctx.db, async (trx) => {
    const before = await oauthRepository.findGrant(trx, userId, request.client.clientId)
    const scopes = [...new Set([...(before?.scopes ?? []), ...request.scopes])]
    const grant = await oauthRepository.upsertGrant(trx, userId, request.client.clientId, scopes, withApproval(before, request.client, request))
    await oauthRepository.insertCode(trx, {
      codeHash: sha256(code),
      grantId: grant.id,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scopes: request.scopes,
      resource: request.resource,
      expiresAt: new Date(Date.now() + CODE_TTL_MS).toISOString(),
    })
    await oauthRepository.touchClient(trx, request.client.clientId)
  })
  return redirectBack(ctx, request.redirectUri, { code, state: request.state })
}

/** The user's grant to a client, if they approved it before. */
export const grantOf = (ctx: AppContext, userId: number, clientId: string): Promise<OAuthGrant | undefined> =>
  oauthRepository.findGrant(ctx.db, userId, clientId)

export const deny = (ctx: AppContext, request: AuthorizationRequest) =>
  redirectBack(ctx, request.redirectUri, { error: 'access_denied', error_description: 'The user declined.', state: request.state })

export interface TokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  refresh_token: string
  scope: string
}

async function issuePair(db: Db, grant: OAuthGrant, clientName: string, scopes: Ability[], resource: string, family: string): Promise<TokenResponse> {
  const access = generateToken(ACCESS_TOKEN_PREFIX)
  const refresh = generateToken(REFRESH_TOKEN_PREFIX)
  const common = { userId: grant.userId, grantId: grant.id, name: clientName, abilities: scopes, resource, family }
  await tokensRepository.insertOAuth(db, {
    ...common,
    kind: 'access',
    tokenHash: sha256(access),
    expiresAt: new Date(Date.now() + ACCESS_TTL_S * 1000).toISOString(),
  })
  await tokensRepository.insertOAuth(db, {
    ...common,
    kind: 'refresh',
    tokenHash: sha256(refresh),
    expiresAt: new Date(Date.now() + REFRESH_TTL_MS).toISOString(),
  })
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TTL_S, refresh_token: refresh, scope: scopes.join(' ') }
}

const invalidGrant = (d: string) => new OAuthError('invalid_grant', d)

async function knownClient(db: Db, clientId: string | undefined): Promise<OAuthClient> {
  if (!clientId) throw new OAuthError('invalid_request', 'client_id is required.')
  const client = await oauthRepository.findClient(db, clientId)
  if (!client) throw new OAuthError('invalid_client', 'Unknown client_id.', 401)
  return client
}

/** Narrower audience on refresh is fine (origin → API or connector); another one is not. */
function refreshedResource(ctx: AppContext, original: string, asked: string | undefined): string {
  if (asked === undefined) return original
  const r = audienceOf(ctx, asked)
  if (r === original || original === ctx.config.publicUrl) return r
  throw new OAuthError('invalid_target', `This grant's tokens are for ${original}.`)
}

/** grant_type=authorization_code (OAuth 2.1 §4.1.3): single use, bound to client, redirect, verifier, resource. */
async function exchangeCode(ctx: AppContext, form: Record<string, string>): Promise<TokenResponse> {
  const codeHash = sha256(form.code ?? '')
  if (!form.code) throw new OAuthError('invalid_request', 'code is required.')
  if (!form.code_verifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE).')
  const outcome = await inTransaction(ctx.db, async (trx) => {
    const client = await knownClient(trx, form.client_id)
    const code = await oauthRepository.findCode(trx, codeHash)
    if (!code) throw invalidGrant('The code is unknown or expired.')
    const grant = await oauthRepository.findGrantById(trx, code.grantId)
    if (!grant || grant.clientId !== client.clientId) throw invalidGrant('The code was not issued to this client.')
    if (!(await oauthRepository.useCode(trx, codeHash))) return { replayedFor: grant.userId }
    if (Date.parse(code.expiresAt) <= Date.now()) throw invalidGrant('The code has expired (codes live 60 seconds).')
    if (form.redirect_uri !== code.redirectUri) throw invalidGrant('redirect_uri must be the one sent to /oauth/authorize.')
    if (!verifierMatches(form.code_verifier, code.codeChallenge)) throw invalidGrant('code_verifier does not match the code_challenge.')
    if (form.resource !== undefined && audienceOf(ctx, form.resource) !== code.resource) {
      throw new OAuthError('invalid_target', `The code was issued for ${code.resource}.`)
    }
    return { tokens: await issuePair(trx, grant, client.name, code.scopes as Ability[], code.resource, codeHash) }
  })
  if (outcome.replayedFor !== undefined) {
    // OAuth 2.1 §4.1.3: a code used twice means it leaked; what it issued is revoked.
    await tokensRepository.deleteFamily(ctx.db, codeHash)
    await ctx.verifiedTokens.changed(outcome.replayedFor)
    throw invalidGrant('The code was already used; the tokens it issued are revoked.')
  }
  return outcome.tokens
}

/**
 * grant_type=refresh_token (OAuth 2.1 §4.3): rotation on every use. A rotated token presented
 * again within the grace (a response lost on the way, two tabs racing) gets the very pair it was
 * exchanged for, once, provided that pair's refresh token is still unused; any other reuse means
 * one of its holders is not the client, and the grant ends. Never a second new pair: two live
 * chains from one token would let a thief go on unnoticed (RFC 9700 §4.14.2).
 */
async function refresh(ctx: AppContext, form: Record<string, string>): Promise<TokenResponse> {
  if (!form.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required.')
  const hash = sha256(form.refresh_token)
  const outcome = await inTransaction(ctx.db, async (trx) => {
    const client = await knownClient(trx, form.client_id)
    const token = await tokensRepository.findByHash(trx, hash)
    if (token?.kind !== 'refresh' || token.grantId === null) throw invalidGrant('The refresh token is unknown or revoked.')
    const grant = await oauthRepository.findGrantById(trx, token.grantId)
    if (!grant || grant.clientId !== client.clientId) throw invalidGrant('The refresh token was not issued to this client.')
    if (token.expiresAt && Date.parse(token.expiresAt) <= Date.now()) throw invalidGrant('The refresh token has expired; authorize again.')
    const family = token.family ?? hash
    if (!(await tokensRepository.markRotated(trx, token.id))) {
      const again = await sameAgain(ctx, trx, hash)
      return again ? { reused: undefined, tokens: again, userId: undefined } : { reused: grant, tokens: undefined, userId: undefined }
    }
    const scopes = form.scope === undefined ? token.abilities : parseScopes(form.scope)
    if (!covers(token.abilities, scopes)) throw new OAuthError('invalid_scope', 'A refresh can narrow the scopes, never widen them.')
    const resource = refreshedResource(ctx, token.resource ?? ctx.config.publicUrl, form.resource)
    // The access token this refresh replaces ends with it: a client holds one live pair, and a
    // leaked access token is not left working beside its successor until it expires.
    await tokensRepository.deleteAccessOfFamily(trx, family)
    const tokens = await issuePair(trx, grant, client.name, scopes, resource, family)
    await tokensRepository.keepSuccessor(trx, token.id, family, seal(ctx, tokens))
    return { reused: undefined, tokens, userId: grant.userId }
  })
  if (outcome.userId !== undefined) await ctx.verifiedTokens.changed(outcome.userId)
  if (outcome.reused) {
    await oauthRepository.deleteGrant(ctx.db, outcome.reused.userId, outcome.reused.id)
    await ctx.verifiedTokens.changed(outcome.reused.userId)
    throw invalidGrant('The refresh token was already used; the grant is revoked. Authorize again.')
  }
  return outcome.tokens as TokenResponse
}

/** The pair a rotated refresh token was exchanged for, when it is retried in the grace, once, and that pair is still unused. */
async function sameAgain(ctx: AppContext, db: Db, hash: string): Promise<TokenResponse | undefined> {
  const rotated = await tokensRepository.findByHash(db, hash)
  if (!rotated?.rotatedAt || Date.now() - Date.parse(rotated.rotatedAt) > REFRESH_GRACE_MS) return undefined
  const sealed = await tokensRepository.takeSuccessor(db, rotated.id)
  const pair = sealed === undefined ? undefined : unseal<TokenResponse>(ctx, sealed)
  if (!pair) return undefined
  const next = await tokensRepository.findByHash(db, sha256(pair.refresh_token))
  if (!next || next.rotatedAt) return undefined
  const access = await tokensRepository.findByHash(db, sha256(pair.access_token))
  const left = access?.expiresAt ? Math.floor((Date.parse(access.expiresAt) - Date.now()) / 1000) : 0
  return left > 0 ? { ...pair, expires_in: left } : undefined
}

async function token(ctx: AppContext, form: Record<string, string>): Promise<TokenResponse> {
  switch (form.grant_type) {
    case 'authorization_code':
      return exchangeCode(ctx, form)
    case 'refresh_token':
      return refresh(ctx, form)
    case undefined:
      throw new OAuthError('invalid_request', 'grant_type is required.')
    default:
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.')
  }
}

/**
 * RFC 7009: revoking a refresh token ends every token descending from its code; an access
 * token ends alone. Unknown tokens, and tokens of other clients, are answered the same (200)
 * and left alone.
 */
async function revoke(ctx: AppContext, form: Record<string, string>): Promise<void> {
  if (!form.token) throw new OAuthError('invalid_request', 'token is required.')
  const client = await knownClient(ctx.db, form.client_id)
  const token = await tokensRepository.findByHash(ctx.db, sha256(form.token))
  if (!token || token.kind === 'personal' || token.grantId === null) return
  const grant = await oauthRepository.findGrantById(ctx.db, token.grantId)
  if (!grant || grant.clientId !== client.clientId) return
  if (token.kind === 'refresh' && token.family) await tokensRepository.deleteFamily(ctx.db, token.family)
  else await tokensRepository.deleteByHash(ctx.db, token.tokenHash)
  await ctx.verifiedTokens.changed(token.userId)
}

/**
 * Dynamic registration is open to anyone: registrations never used within a day go, with dead
 * codes, and OAuth tokens a day past their expiry (rotated refresh tokens end there too).
 */
async function purge(ctx: AppContext): Promise<void> {
  const dayAgo = new Date(Date.now() - 86_400_000).toISOString()
  await oauthRepository.purgeCodes(ctx.db, dayAgo)
  await oauthRepository.purgeUnusedClients(ctx.db, dayAgo)
  await tokensRepository.purgeExpired(ctx.db, dayAgo)
}

/** /settings/apps: the grants, and Disconnect (every token of the grant dies at once). */
export const oauthGrants = Object.freeze({ token, revoke, purge })
