import { AppError } from '../kernel/errors.ts'
import { ABILITIES, type Ability } from '../store/tokens.ts'
import type { User } from '../store/users.ts'

export type { Ability }

/**
 * Who is calling, whatever the face: the account and what this credential may do. A personal
 * token fills user, tokenId and abilities; an OAuth access token also names its client and grant.
 */
export interface Principal {
  user: User
  tokenId: number
  abilities: Ability[]
  /** OAuth: the client the grant was given to. */
  clientId?: string
  /** OAuth: the grant this access token belongs to. */
  grantId?: number
  /**
   * The account's revision as this request read it when authenticating (auth/verified-tokens.ts):
   * what was read of the account at the same revision is still what is stored. Unset when the
   * face did not read one; then nothing is taken from a cache keyed by it.
   */
  accountRevision?: string
}

export const can = (principal: Principal, ability: Ability) => principal.abilities.includes(ability)

/** 403 unless the principal holds the ability (the same words for every face). */
export function requireAbility(principal: Principal, ability: Ability): void {
  if (!can(principal, ability)) throw new AppError('forbidden', { message: `This token lacks the ${ability} ability needed here.` })
}

/**
 * The account's owner acting in person, through a face that authenticated them itself (the
 * dashboard's session, the command line): every ability, and no token (tokenId 0).
 */
/**
 * 403 unless the owner acts in person (tokenId 0: the dashboard's session, the command line).
 * Tokens and account details are theirs alone: a token that could mint tokens or change the
 * password could make a leak permanent.
 */
export function requireOwnerInPerson(principal: Principal): void {
  if (principal.tokenId !== 0) throw new AppError('forbidden', { message: 'Only the account owner in person may do this, not a token.' })
}

export const ownerPrincipal = (user: User): Principal => ({ user, tokenId: 0, abilities: [...ABILITIES] })
