import type { Ability } from '../auth/principal.ts'
import { ABILITIES } from '../store/tokens.ts'
import { OAuthError } from './oauth-error.ts'

/** What each scope lets an application do, in the words the consent page shows. */
export const SCOPE_TEXT: Record<Ability, string> = {
  'profile:read': 'see your pages, their blocks and their statistics',
  'profile:write': 'create, change, reorder and delete blocks, edit your pages and upload images',
}

/**
 * The scopes a request asks for: both when none is named; unknown ones refused
 * (RFC 6749 §3.3 invalid_scope); write widened to read as well, since a writer must see what it
 * changes.
 */
export function parseScopes(raw: string | undefined): Ability[] {
  const asked = (raw ?? '').split(' ').filter(Boolean)
  if (asked.length === 0) return [...ABILITIES]
  const unknown = asked.filter((s) => !(ABILITIES as readonly string[]).includes(s))
  if (unknown.length) throw new OAuthError('invalid_scope', `Unknown scope ${unknown.join(', ')}; scopes are ${ABILITIES.join(' and ')}.`)
  const set = new Set(asked as Ability[])
  if (set.has('profile:write')) set.add('profile:read')
  return ABILITIES.filter((a) => set.has(a))
}

export const covers = (granted: readonly string[], asked: readonly string[]) => asked.every((s) => granted.includes(s))
