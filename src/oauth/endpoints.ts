import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type Audience, resourceUrl } from '../auth/bearer.ts'
import type { AppContext } from '../context.ts'
import { AppError } from '../kernel/errors.ts'
import { parseFormBody } from '../http/form-body.ts'
import { schedulePeriodic } from '../jobs/periodic-job.ts'
import { enforceAddressLimit } from '../http/rate-limit-hooks.ts'
import { ABILITIES } from '../core/use-cases.ts'
import { oauthClients } from '../authorization/clients.ts'
import { oauthGrants } from '../authorization/grants.ts'
import { OAuthError } from '../authorization/oauth-error.ts'

/** RFC 8414 §2: what a client needs to find everything else, from the issuer alone. */
function serverMetadata(ctx: AppContext) {
  const issuer = ctx.config.publicUrl
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...ABILITIES],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/v1/docs`,
  }
}

/** RFC 9728 §2: one document per protected resource, naming us as its authorization server. */
function resourceMetadata(ctx: AppContext, audience: Audience) {
  return {
    resource: resourceUrl(ctx, audience),
    authorization_servers: [ctx.config.publicUrl],
    scopes_supported: [...ABILITIES],
    bearer_methods_supported: ['header'],
    resource_name: audience === 'mcp' ? 'Slotline agent connector (MCP)' : 'Slotline API',
    resource_documentation: `${ctx.config.publicUrl}/v1/docs`,
  }
}

/** Registration bodies are a few hundred bytes; anything near this is not a client. */
const REGISTRATION_BODY_LIMIT = 16 * 1024

function sendOAuthError(reply: FastifyReply, err: OAuthError) {
  return reply.code(err.status).header('cache-control', 'no-store').send(err.body)
}

/**
 * The authorization server's machine endpoints: metadata, registration, token and
 * revocation. Their errors are OAuth's `{error, error_description}`, not the API envelope.
 * Browser-based clients call them across origins; no cookie is involved, so any origin may.
 */
export function installOAuthEndpoints(app: FastifyInstance, ctx: AppContext): void {
  app.register(async (scope) => {
    scope.addHook('onSend', async (_req, reply, payload) => {
      reply.header('access-control-allow-origin', '*')
      return payload
    })
    speakOAuth(scope)
    metadataRoutes(scope, ctx)
    clientRoutes(scope, ctx)
  })

  schedulePeriodic(ctx, {
    name: 'oauth-purge',
    everyMs: 3600_000,
    run: async () => {
      await oauthGrants.purge(ctx)
      return undefined
    },
  })
}

/** Errors in OAuth's shape, and only the two body types OAuth clients send. */
function speakOAuth(scope: FastifyInstance): void {
  scope.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    if (err instanceof OAuthError) return sendOAuthError(reply, err)
    // The registration limit too, in the shape OAuth clients parse (the MCP SDK knows this code).
    if (err instanceof AppError && err.code === 'rate_limited') {
      reply.headers(err.headers)
      return sendOAuthError(reply, new OAuthError('too_many_requests', err.message, 429))
    }
    // Fastify's own refusals (media type, body too large) in the shape OAuth clients parse.
    const status = err.statusCode ?? 500
    if (!(err instanceof AppError) && status >= 400 && status < 500) return sendOAuthError(reply, new OAuthError('invalid_request', err.message, status))
    throw err
  })
  scope.removeAllContentTypeParsers()
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    try {
      // RFC 6749 §3.1: parameters must not be included more than once.
      done(
        null,
        parseFormBody(body as Buffer, (key) => {
          throw new OAuthError('invalid_request', `${key} was sent more than once; send each parameter once.`)
        }),
      )
    } catch (err) {
      done(err instanceof OAuthError ? err : new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded UTF-8.'), undefined)
    }
  })
  scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: REGISTRATION_BODY_LIMIT }, (req, body, done) => {
    try {
      done(null, JSON.parse(String(body)))
    } catch {
      const code = req.url.startsWith('/oauth/register') ? 'invalid_client_metadata' : 'invalid_request'
      done(new OAuthError(code, 'The body is not valid JSON.'), undefined)
    }
  })
}

/** The discovery documents, and preflights for exactly the paths browser-based clients call. */
function metadataRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const asMetadata = async (_req: unknown, reply: FastifyReply) => reply.header('cache-control', 'public, max-age=3600').send(serverMetadata(ctx))
  // The path-suffixed form (RFC 8414 §3.1) answers the same: there is one issuer.
  scope.get('/.well-known/oauth-authorization-server', asMetadata)
  scope.get('/.well-known/oauth-authorization-server/*', asMetadata)
  for (const audience of ['v1', 'mcp'] as const) {
    scope.get(`/.well-known/oauth-protected-resource/${audience}`, async (_req, reply) =>
      reply.header('cache-control', 'public, max-age=3600').send(resourceMetadata(ctx, audience)),
    )
  }

  // Preflights of browser-based clients, for exactly these paths (never the API's or the connector's).
  const preflight = async (_req: unknown, reply: FastifyReply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST')
      .header('access-control-allow-headers', 'content-type, mcp-protocol-version')
      .header('access-control-max-age', '86400')
      .send()
  for (const path of [
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-authorization-server/*',
    '/.well-known/oauth-protected-resource/v1',
    '/.well-known/oauth-protected-resource/mcp',
    '/oauth/register',
    '/oauth/token',
    '/oauth/revoke',
  ]) {
    scope.options(path, preflight)
  }
}

/** Registration, token and revocation. */
function clientRoutes(scope: FastifyInstance, ctx: AppContext): void {
  // Counted from the request head, before a body is read.
  const registrationLimit = async (req: FastifyRequest, reply: FastifyReply) => enforceAddressLimit(ctx, req, reply, 'oauthRegistration')
  scope.post('/oauth/register', { onRequest: registrationLimit }, async (req, reply) => {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
      throw new OAuthError('invalid_client_metadata', 'Send the client metadata as application/json.')
    }
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send(await oauthClients.register(ctx, req.body))
  })
  scope.post('/oauth/token', async (req, reply) => {
    const tokens = await oauthGrants.token(ctx, formOf(req.headers['content-type'], req.body))
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens)
  })
  scope.post('/oauth/revoke', async (req, reply) => {
    await oauthGrants.revoke(ctx, formOf(req.headers['content-type'], req.body))
    return reply.header('cache-control', 'no-store').code(200).send()
  })
}

/** Token and revocation requests are form-encoded (RFC 6749 §4.1.3, RFC 7009 §2.1), so every value is a string. */
function formOf(contentType: string | undefined, body: unknown): Record<string, string> {
  if (!String(contentType ?? '').startsWith('application/x-www-form-urlencoded') || typeof body !== 'object' || body === null)
    throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.')
  return body as Record<string, string>
}
