import type { FastifyRequest } from 'fastify'
import { digestsEqual, isTokenShaped, sha256 } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { tokensRepository } from '../store/tokens.ts'
import { AppError } from './errors.ts'
import type { Principal, Scope } from './routes.ts'

const challenge = { 'WWW-Authenticate': 'Bearer realm="slotline"' }
const unauthenticated = (message: string) => new AppError('unauthenticated', { message, headers: challenge })

// lastUsedAt is recorded at most once a minute per token, so reads stay reads.
const TOUCH_EVERY_MS = 60_000

/** Turns the bearer token into a principal, then checks the row's scope. */
export async function authenticate(ctx: AppContext, req: FastifyRequest, scope: Scope): Promise<Principal> {
  const header = req.headers.authorization
  if (!header) throw unauthenticated('Send a token as Authorization: Bearer <token>; issue one in the dashboard settings.')
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match) throw unauthenticated('The Authorization header must be "Bearer <token>".')
  const raw = match[1]
  if (!isTokenShaped(raw)) throw unauthenticated('The token is invalid or has been revoked.')
  const hash = sha256(raw)
  const found = await tokensRepository.findWithUser(ctx.db, hash)
  // The lookup is by digest; the comparison is constant-time all the same.
  if (!found || !digestsEqual(found.token.tokenHash, hash)) throw unauthenticated('The token is invalid or has been revoked.')
  const { token, user } = found
  if (!token.lastUsedAt || Date.parse(token.lastUsedAt) < Date.now() - TOUCH_EVERY_MS) {
    await tokensRepository.touch(ctx.db, token.id)
  }
  const principal: Principal = { user, tokenId: token.id, abilities: token.abilities }
  if (scope !== 'public' && !principal.abilities.includes(scope)) {
    throw new AppError('forbidden', { message: `This token lacks the ${scope} ability needed here.` })
  }
  return principal
}
