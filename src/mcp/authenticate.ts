import type { FastifyRequest } from 'fastify'
import { type BearerPrincipal, verifyBearer } from '../auth/bearer.ts'
import type { AppContext } from '../context.ts'

/**
 * The bearer token of an /mcp request → its principal: a personal token, or an OAuth access
 * token issued for the connector (or the whole origin). Abilities are checked per tool, not
 * here. A refusal is 401 with the challenge that starts a client's OAuth flow (MCP authorization).
 */
export async function authenticateMcp(ctx: AppContext, req: FastifyRequest): Promise<BearerPrincipal> {
  const principal = await verifyBearer(ctx, req.headers.authorization, 'mcp')
  // Audit: the log line of an OAuth-authorised call names its client (never the token).
  if (principal.clientId) req.log = req.log.child({ clientId: principal.clientId })
  return principal
}
