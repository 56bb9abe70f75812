import type { Configuration } from 'openid-client'
import type { SingleSignOnConfig } from '../config.ts'
import type { AppContext } from '../context.ts'
import { AppError } from '../kernel/errors.ts'

// Loaded when single sign-on is first used: most services never configure it, and a resting
// process should not hold it.
type OpenIdClient = typeof import('openid-client')
let library: Promise<OpenIdClient> | undefined
const openIdClient = () => (library ??= import('openid-client'))

/** What the browser carries through the provider and back: kept in its session, used once. */
export interface PendingAuthorization {
  state: string
  nonce: string
  codeVerifier: string
  /** Set when the person was asked to sign in again at the provider: how old that sign-in may be, in seconds. */
  maxAge?: number
}

/**
 * How long ago a person may have signed in at the provider to confirm a change here (the
 * request asks for a new sign-in, so this only allows for the time it takes).
 */
export const FRESH_SIGN_IN_SECONDS = 300

/** The person the provider vouched for. Only these claims are read; roles or groups never are. */
export interface ProviderIdentity {
  issuer: string
  subject: string
  email: string | undefined
  emailVerified: boolean
  name: string | undefined
  /** When the person signed in at the provider (seconds since 1970), when it said. */
  authenticatedAt: number | undefined
}

/**
 * The provider's metadata and keys, fetched once per issuer and client (secret included); a
 * failed fetch is forgotten so the next sign-in asks again.
 */
export type ProviderMetadataCache = Map<string, Promise<Configuration>>

export const createProviderMetadataCache = (): ProviderMetadataCache => new Map()

function unavailable(cause: unknown): AppError {
  // The cause's message only: a client error can carry the request it made, secret included.
  const reason = cause instanceof Error ? cause.message : String(cause)
  return new AppError('upstream_unavailable', { message: `The single sign-on provider cannot be reached right now (${reason}). Try again in a moment.` })
}

async function configurationOf(ctx: AppContext, sso: SingleSignOnConfig): Promise<Configuration> {
  const discovered = ctx.providerMetadata
  const key = `${sso.issuer}\n${sso.clientId}`
  let found = discovered.get(key)
  if (!found) {
    found = openIdClient().then((oc) => {
      const insecure = new URL(sso.issuer).protocol === 'http:'
      return oc.discovery(new URL(sso.issuer), sso.clientId, sso.clientSecret, undefined, insecure ? { execute: [oc.allowInsecureRequests] } : undefined)
    })
    discovered.set(key, found)
    found.catch(() => discovered.delete(key))
  }
  try {
    return await found
  } catch (err) {
    throw unavailable(err)
  }
}

/**
 * Where to send the browser (authorization code with PKCE, state and nonce) and what to keep
 * until it returns. With `signInAgain` the provider is asked to sign the person in anew
 * (OpenID Connect Core §3.1.2.1, prompt=login and max_age), and its answer must say it did.
 */
async function authorizationRequest(
  ctx: AppContext,
  sso: SingleSignOnConfig,
  redirectUri: string,
  signInAgain = false,
): Promise<{ url: string; pending: PendingAuthorization }> {
  const config = await configurationOf(ctx, sso)
  const oc = await openIdClient()
  const pending: PendingAuthorization = { state: oc.randomState(), nonce: oc.randomNonce(), codeVerifier: oc.randomPKCECodeVerifier() }
  if (signInAgain) pending.maxAge = FRESH_SIGN_IN_SECONDS
  const url = oc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await oc.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
    ...(signInAgain ? { prompt: 'login', max_age: String(FRESH_SIGN_IN_SECONDS) } : {}),
  })
  return { url: url.href, pending }
}

/** The origin of the provider's authorization endpoint: a form that redirects there must allow it. */
async function authorizationOrigin(ctx: AppContext, sso: SingleSignOnConfig): Promise<string> {
  const endpoint = (await configurationOf(ctx, sso)).serverMetadata().authorization_endpoint
  return new URL(endpoint ?? sso.issuer).origin
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

/**
 * The browser came back to `callbackUrl`: the code is exchanged (with the PKCE verifier), the ID
 * token checked (signature, issuer, audience, nonce) and the user info read for the e-mail.
 * Undefined when the provider refused or anything does not match: the person starts again.
 */
async function completeAuthorization(
  ctx: AppContext,
  sso: SingleSignOnConfig,
  callbackUrl: URL,
  pending: PendingAuthorization,
): Promise<ProviderIdentity | undefined> {
  const config = await configurationOf(ctx, sso)
  const oc = await openIdClient()
  let tokens: Awaited<ReturnType<OpenIdClient['authorizationCodeGrant']>>
  try {
    tokens = await oc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
      // A fresh sign-in was asked for: the ID token must carry auth_time within it.
      maxAge: pending.maxAge,
    })
  } catch {
    return undefined
  }
  const claims = tokens.claims()
  if (!claims) return undefined
  let info: Record<string, unknown> = {}
  try {
    info = await oc.fetchUserInfo(config, tokens.access_token, claims.sub)
  } catch {
    // Some providers put everything in the ID token and have no user info to add.
  }
  const email = text(info.email) ?? text(claims.email)
  const verified = info.email !== undefined ? info.email_verified : claims.email_verified
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: email?.toLowerCase(),
    emailVerified: verified === true || verified === 'true',
    name: text(info.name) ?? text(claims.name),
    authenticatedAt: typeof claims.auth_time === 'number' ? claims.auth_time : undefined,
  }
}

export const singleSignOnProvider = Object.freeze({ authorizationRequest, authorizationOrigin, completeAuthorization })

// The context holds the cache as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    /** Single sign-on providers' metadata and keys, fetched on first use (per context, never shared). */
    readonly providerMetadata: ProviderMetadataCache
  }
}
