import type { FastifyRequest } from 'fastify'
import { requireScope, verifyBearer } from '../auth/bearer.ts'
import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import type { Scope } from './routes.ts'

/** Turns the bearer token into a principal, then checks the row's scope. */
export async function authenticate(ctx: AppContext, req: FastifyRequest, scope: Scope): Promise<Principal> {
  const principal = await verifyBearer(ctx, req.headers.authorization, 'v1')
  // Audit: every OAuth-authorised request's log line names its client (never the token).
  if (principal.clientId) req.log = req.log.child({ clientId: principal.clientId })
  if (scope !== 'public') requireScope(ctx, principal, scope, 'v1')
  return principal
}
