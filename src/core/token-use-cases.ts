import { type Static, Type } from '@sinclair/typebox'
import { accounts, tokenNameProblem } from '../auth/accounts.ts'
import { type Principal, requireOwnerInPerson } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { limits } from '../kernel/limits.ts'
import { ABILITIES, type Ability, type TokenRecord, tokensRepository } from '../store/tokens.ts'
import { notFound } from '../kernel/errors.ts'

export { ABILITIES, type Ability, type TokenRecord, tokenNameProblem }

/** What issuing a personal token takes; the same for the dashboard, the command line and first start. */
export const NewToken = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: limits.tokenNameLength, description: 'A label to recognise the token by.' })),
    abilities: Type.Optional(Type.Array(Type.Union(ABILITIES.map((a) => Type.Literal(a))), { minItems: 1, description: 'Default: every ability.' })),
  },
  { additionalProperties: false },
)
export type NewToken = Static<typeof NewToken>

export const TokenRevocation = Type.Object({ tokenId: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })
export type TokenRevocation = Static<typeof TokenRevocation>

// Personal tokens are managed by the owner in person (requireOwnerInPerson says why).

/** A new personal token; the raw token is in this answer only (only its hash is stored). */
async function issue(ctx: AppContext, principal: Principal, input: NewToken = {}): Promise<{ token: string; record: TokenRecord }> {
  requireOwnerInPerson(principal)
  return accounts.createToken(ctx.db, principal.user.id, { name: input.name, abilities: input.abilities as Ability[] | undefined })
}

/** The account's personal tokens, oldest first (OAuth tokens are the connected apps'). */
async function list(ctx: AppContext, principal: Principal): Promise<TokenRecord[]> {
  requireOwnerInPerson(principal)
  return tokensRepository.listByUser(ctx.db, principal.user.id)
}

/**
 * Revocation deletes the token: its very next request is refused, on every instance (the
 * verified-token caches are told before this answers). Another account's id is not_found.
 */
async function revoke(ctx: AppContext, principal: Principal, input: TokenRevocation): Promise<void> {
  requireOwnerInPerson(principal)
  if (!(await tokensRepository.revoke(ctx.db, principal.user.id, input.tokenId))) throw notFound('token')
  await ctx.verifiedTokens.changed(principal.user.id)
}

export const tokenUseCases = Object.freeze({ issue, list, revoke })
