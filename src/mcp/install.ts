import type { AuthInfo } from '@modelcontextprotocol/server'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { AppError } from '../kernel/errors.ts'
import { enforceAddressLimit, enforceProtocolLimit } from '../http/rate-limit-hooks.ts'
import { resourceMetadataUrl } from '../auth/bearer.ts'
import { installJsonBody } from '../http/json-body.ts'
import { ARGUMENT_LIMITS, MCP_BODY_LIMIT } from './argument-limits.ts'
import { authenticateMcp } from './authenticate.ts'
import { surfaceFor } from './message-surface.ts'
import type { McpExtra } from './server.ts'

export const MCP_PATH = '/mcp'

// Parsed once per configuration: every /mcp request checks its Host and Origin against it.
const publicUrls = new WeakMap<AppContext['config'], URL>()
function publicUrlOf(ctx: AppContext): URL {
  let url = publicUrls.get(ctx.config)
  if (!url) publicUrls.set(ctx.config, (url = new URL(ctx.config.publicUrl)))
  return url
}

/**
 * DNS-rebinding protection (MCP transports, security warning): a browser page on another origin
 * must not reach the connector through a user's session or network. Clients outside a browser
 * send no Origin and pass.
 */
function checkOrigin(ctx: AppContext, req: FastifyRequest): void {
  checkHost(ctx, req)
  const origin = req.headers.origin
  if (origin === undefined) return
  if (origin === publicUrlOf(ctx).origin) return
  throw new AppError('forbidden', { message: `Requests from the origin ${origin} are not accepted here.` })
}

/**
 * DNS rebinding again: a page of attacker.example whose name now resolves to us is same-origin
 * to itself, and a GET sends no Origin, but its Host is still the attacker's name. Only our own
 * name is accepted, and names that cannot be rebound: IP literals and localhost (a client in the
 * same network, a proxy that sends the upstream's address as Host). Behind a trusted proxy
 * req.host is its X-Forwarded-Host.
 */
function checkHost(ctx: AppContext, req: FastifyRequest): void {
  const host = (req.host ?? '').toLowerCase()
  const ours = publicUrlOf(ctx).host.toLowerCase()
  if (host === ours) return
  const name = host.replace(/:\d+$/, '')
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name) || /^\[[0-9a-f:.]+\]$/.test(name) || name === 'localhost') return
  throw new AppError('forbidden', { message: `Requests for the host ${host || '(none)'} are not accepted here; use ${ours}.` })
}

/**
 * A stateless endpoint has no session to end (DELETE), and a POST body must be JSON-RPC: both are
 * answered here in the API's error envelope, like every other route, rather than by the SDK.
 */
function refuseWhatTheSdkWouldAnswerOutsideTheEnvelope(req: FastifyRequest): void {
  if (req.method === 'DELETE') {
    throw new AppError('method_not_allowed', {
      message: 'There are no sessions to end: /mcp is stateless. Use POST (and GET).',
      headers: { Allow: 'GET, POST' },
    })
  }
  if (req.method === 'POST' && !/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    throw new AppError('unsupported_media_type', { message: 'Send JSON-RPC messages as application/json.' })
  }
}

/** The first protocol revision without JSON-RPC batches (MCP 2025-06-18 changelog: "Remove support for JSON-RPC batching"). */
const BATCHES_REMOVED_IN = '2025-06-18'

/**
 * A JSON-RPC batch is refused (-32600) from the revision that removed them on; an older client
 * (no MCP-Protocol-Version header: 2025-03-26 by the transport's rule) may still send one, and
 * each tool call in it is counted on its own.
 */
function refuseBatchWhereRemoved(req: FastifyRequest): object | undefined {
  if (req.method !== 'POST' || !Array.isArray(req.body)) return undefined
  const version = req.headers['mcp-protocol-version']
  if (typeof version !== 'string' || version < BATCHES_REMOVED_IN) return undefined
  return {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: `Invalid Request: JSON-RPC batches are not part of protocol version ${version}; send one message per request.` },
  }
}

/** How many messages of a request are not tool calls (a GET, the stream, counts as one). */
function protocolMessages(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body]
  const others = messages.filter((m) => !(m && typeof m === 'object' && (m as { method?: unknown }).method === 'tools/call')).length
  return Math.min(others, 100)
}

async function principalOf(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  try {
    return await authenticateMcp(ctx, req)
  } catch (err) {
    // Without a valid token there is no token to count against: the address is (as REST does).
    // A request with no token at all is a client starting OAuth discovery: it has a larger budget
    // of its own, and past it the 429 still carries the challenge (MCP authorization).
    if (err instanceof AppError && err.code === 'unauthenticated') {
      const rule = req.headers.authorization === undefined ? 'mcpChallenges' : 'requests'
      const challenge = err.headers['WWW-Authenticate']
      await enforceAddressLimit(ctx, req, reply, rule, challenge ? { 'WWW-Authenticate': challenge } : {})
    }
    throw err
  }
}

/** The SDK's request handling and our own check that runs before it, loaded together. */
interface Connector {
  serve: ReturnType<typeof import('./mcp-endpoint.ts').createMcpEndpoint>
  refuseOversizedCall: typeof import('./server.ts').refuseOversizedCall
}

/**
 * The agent connector: stateless Streamable HTTP at /mcp, a fresh MCP server per request, so any
 * instance behind a load balancer answers any request. 2025-era clients are served statelessly too.
 */
export function installMcp(app: FastifyInstance, ctx: AppContext): void {
  // The SDK, its schemas and our tools (tens of megabytes) load with the first /mcp request, not at start:
  // many instances never serve an agent.
  let loaded: Promise<Connector> | undefined
  const connector = () =>
    (loaded ??= (async () => {
      const [{ createMcpEndpoint }, { refuseOversizedCall }] = await Promise.all([import('./mcp-endpoint.ts'), import('./server.ts')])
      return { serve: createMcpEndpoint(ctx), refuseOversizedCall }
    })())
  // A scope of its own for the JSON parser that counts fields before parsing (argument-limits.ts).
  app.register(async (scope) => {
    installJsonBody(scope, { maxFields: ARGUMENT_LIMITS.totalKeys })
    scope.route(mcpRoute(ctx, connector))
  })
}

function mcpRoute(ctx: AppContext, connector: () => Promise<Connector>): RouteOptions {
  return {
    method: ['GET', 'POST', 'DELETE'],
    url: MCP_PATH,
    bodyLimit: MCP_BODY_LIMIT,
    handler: async (req, reply) => {
      checkOrigin(ctx, req)
      refuseWhatTheSdkWouldAnswerOutsideTheEnvelope(req)
      const principal = await principalOf(ctx, req, reply)
      // Every message counts under a rule that fits it: tool calls under the per-token rules
      // (callTool, each call of a batch once), everything else (initialize, ping, lists, the
      // stream) under the wider protocol rules, once a message.
      for (let i = 0; i < protocolMessages(req.body); i++) await enforceProtocolLimit(ctx, reply, principal)
      const batchRefusal = refuseBatchWhereRemoved(req)
      if (batchRefusal) return reply.code(400).send(batchRefusal)
      const auth: AuthInfo = {
        token: '',
        clientId: principal.clientId ?? `personal-token-${principal.tokenId}`,
        scopes: [...principal.abilities],
        resourceMetadataUrl: resourceMetadataUrl(ctx, 'mcp'),
        extra: { principal, surface: surfaceFor(req.body) } satisfies McpExtra as unknown as Record<string, unknown>,
      }
      const { serve, refuseOversizedCall } = await connector()
      const oversized = refuseOversizedCall(req.body, req.bodyBytes ?? 0, { ctx, principal })
      if (oversized) return reply.code(200).send(oversized)
      reply.hijack()
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value as string)
      await serve(Object.assign(req.raw, { auth }), reply.raw, req.body)
    },
  }
}
