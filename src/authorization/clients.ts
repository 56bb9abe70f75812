import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { AppContext } from '../context.ts'
import { guardedFetch, UrlRefused } from '../media/guarded-fetch.ts'
import { withTempFile } from '../media/temp-files.ts'
import { type OAuthClient, oauthRepository } from '../store/oauth.ts'
import { OAuthError } from './oauth-error.ts'
import { normalRedirectUri, redirectUriProblem } from './redirect-uris.ts'

/** Registration limits: enough for any real client, small enough that nobody stores a novel. */
const MAX_REDIRECT_URIS = 10
const MAX_URI_LENGTH = 2000
const MAX_NAME_LENGTH = 100
/** Client ID Metadata Documents: small JSON, fetched quickly, cached at most a day. */
const METADATA_MAX_BYTES = 5 * 1024
const METADATA_TIMEOUT_MS = 5_000
const METADATA_DEFAULT_TTL_S = 3600
const METADATA_MIN_TTL_S = 60
const METADATA_MAX_TTL_S = 86_400

const badMetadata = (description: string) => new OAuthError('invalid_client_metadata', description)

interface ClientMetadata {
  name: string
  redirectUris: string[]
}

/** The fields of RFC 7591 §2 we act on, checked; a public client only (token_endpoint_auth_method none). */
function readMetadata(body: unknown, invalidRedirect: (d: string) => OAuthError): ClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badMetadata('The registration body must be a JSON object.')
  const m = body as Record<string, unknown>
  const uris = m.redirect_uris
  if (!Array.isArray(uris) || uris.length === 0) throw invalidRedirect('redirect_uris must list 1 or more redirect URIs.')
  if (uris.length > MAX_REDIRECT_URIS) throw invalidRedirect(`redirect_uris lists at most ${MAX_REDIRECT_URIS} URIs.`)
  for (const uri of uris) {
    if (typeof uri !== 'string' || uri.length > MAX_URI_LENGTH) throw invalidRedirect(`Each redirect URI is a string of at most ${MAX_URI_LENGTH} characters.`)
    const problem = redirectUriProblem(uri)
    if (problem) throw invalidRedirect(problem)
  }
  const method = m.token_endpoint_auth_method
  if (method !== undefined && method !== 'none') {
    throw badMetadata('Only public clients are supported: token_endpoint_auth_method must be "none" (use PKCE).')
  }
  const grants = m.grant_types
  if (grants !== undefined && (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))) {
    throw badMetadata('grant_types may only hold authorization_code and refresh_token.')
  }
  const responses = m.response_types
  if (responses !== undefined && (!Array.isArray(responses) || responses.some((r) => r !== 'code'))) {
    throw badMetadata('response_types may only hold code.')
  }
  const name = m.client_name
  if (name !== undefined && (typeof name !== 'string' || name.length > MAX_NAME_LENGTH)) {
    throw badMetadata(`client_name is a string of at most ${MAX_NAME_LENGTH} characters.`)
  }
  const host = new URL(uris[0] as string).host
  // Stored and answered in normal form (RFC 7591 §3.2.1 lets the server say what it registered).
  const redirectUris = [...new Set((uris as string[]).map(normalRedirectUri))]
  return { name: (name as string | undefined)?.trim() || host || 'Unnamed application', redirectUris }
}

/** RFC 7591 §3.2.1: the client as registered. */
function registrationResponse(client: { clientId: string; name: string; redirectUris: string[] }, issuedAt: number) {
  return {
    client_id: client.clientId,
    client_id_issued_at: issuedAt,
    client_name: client.name,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  }
}

/** Dynamic client registration (RFC 7591) of a public client. */
async function register(ctx: AppContext, body: unknown) {
  const metadata = readMetadata(body, (d) => new OAuthError('invalid_redirect_uri', d))
  const clientId = `slc_${randomBytes(16).toString('base64url')}`
  await oauthRepository.saveClient(ctx.db, { clientId, ...metadata })
  return registrationResponse({ clientId, ...metadata }, Math.floor(Date.now() / 1000))
}

const isMetadataUrl = (clientId: string) => /^https?:\/\//i.test(clientId)

/**
 * max-age from Cache-Control, bounded both ways. no-store, no-cache and max-age=0 mean "as often as
 * allowed": at most once a minute, or every authorization request would make us fetch the
 * document again (a client could point us at anything it likes to hit, as often as it likes).
 */
function ttlSeconds(cacheControl: string | undefined): number {
  if (!cacheControl) return METADATA_DEFAULT_TTL_S
  if (/\b(no-store|no-cache)\b/i.test(cacheControl)) return METADATA_MIN_TTL_S
  const m = /\bmax-age=(\d+)/i.exec(cacheControl)
  return m ? Math.max(METADATA_MIN_TTL_S, Math.min(Number(m[1]), METADATA_MAX_TTL_S)) : METADATA_DEFAULT_TTL_S
}

/**
 * What a refused fetch may tell the requester. Whether a name resolves, to what kind of address,
 * would map an internal network from outside (`http://db.internal/` "resolves to a private
 * address" vs "could not be resolved"): those refusals read alike. Size and time limits are said.
 */
function publicReason(err: UrlRefused): string {
  if (/could not be resolved|has no address|private or reserved/i.test(err.message)) {
    return 'its host must have a public address that answers with the document.'
  }
  return err.message
}

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): the client_id
 * is an https URL whose JSON describes the client. Fetched through the same guard as
 * upload-by-URL (private addresses refused, size and time limits), cached per Cache-Control.
 */
async function fetchMetadataDocument(ctx: AppContext, url: string): Promise<OAuthClient> {
  const allowed = ctx.config.oauthMetadataAllowHosts
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new OAuthError('invalid_client', 'The client_id URL is not valid.')
  }
  if (parsed.protocol !== 'https:' && !allowed.includes(parsed.host)) throw new OAuthError('invalid_client', 'A client_id URL must use https.')
  if (parsed.hash || parsed.username || parsed.password) throw new OAuthError('invalid_client', 'A client_id URL has no fragment and no credentials.')
  const media = ctx.media
  const { text, cacheControl } = await withTempFile(ctx, async (temp) => {
    try {
      const got = await guardedFetch(url, {
        resolve: media.resolve,
        connect: media.connect,
        allowHostPorts: allowed,
        maxBytes: METADATA_MAX_BYTES,
        // The media services' URL timeout bounds this one too (tests shorten it there).
        timeoutMs: Math.min(METADATA_TIMEOUT_MS, media.urlTimeoutMs),
        // The document must be at the client_id itself (its client_id must equal the URL).
        maxRedirects: 0,
        destination: temp,
        accept: 'application/json',
      })
      return { text: await readFile(temp, 'utf8'), cacheControl: got.cacheControl }
    } catch (err) {
      if (err instanceof UrlRefused) {
        ctx.log.info({ clientId: url, reason: err.message }, 'client metadata document refused')
        throw new OAuthError('invalid_client', `The client metadata document could not be fetched: ${publicReason(err)}`)
      }
      throw err
    }
  })
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    throw new OAuthError('invalid_client', 'The client metadata document is not JSON.')
  }
  if ((doc as { client_id?: unknown })?.client_id !== url) {
    throw new OAuthError('invalid_client', 'The client metadata document must name its own URL as client_id.')
  }
  const metadata = readMetadata(doc, (d) => new OAuthError('invalid_client', d))
  const expires = new Date(Date.now() + ttlSeconds(cacheControl) * 1000).toISOString()
  await oauthRepository.saveClient(ctx.db, { clientId: url, ...metadata, metadataUrl: url, metadataExpiresAt: expires })
  return (await oauthRepository.findClient(ctx.db, url))!
}

/** The client named by a request: registered, or described by its metadata document URL. */
async function resolve(ctx: AppContext, clientId: string | undefined): Promise<OAuthClient> {
  if (!clientId) throw new OAuthError('invalid_request', 'client_id is required.')
  const known = await oauthRepository.findClient(ctx.db, clientId)
  if (known && !known.metadataUrl) return known
  if (!isMetadataUrl(clientId)) throw new OAuthError('invalid_client', 'Unknown client_id: register the application first (POST /oauth/register).')
  if (known?.metadataExpiresAt && Date.parse(known.metadataExpiresAt) > Date.now()) return known
  return fetchMetadataDocument(ctx, clientId)
}

/** Whether a client with this id is registered (or was fetched from its metadata URL before). */
const isKnown = async (ctx: AppContext, clientId: string) => (await oauthRepository.findClient(ctx.db, clientId)) !== undefined

export type { OAuthClient }
export const oauthClients = Object.freeze({ register, resolve, isMetadataUrl, isKnown })
