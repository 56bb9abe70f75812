import { invalidField } from '../core/errors.ts'

/** spec, GET /profiles/{profileKey}: the extras `include` may ask for. */
export const PROFILE_INCLUDES = ['slots'] as const
export type ProfileInclude = (typeof PROFILE_INCLUDES)[number]

/** `include=slots` (a comma list); an unknown value is 422 naming `include`. */
export function parseInclude(raw: string | undefined): Set<ProfileInclude> {
  const wanted = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const unknown = wanted.filter((w) => !(PROFILE_INCLUDES as readonly string[]).includes(w))
  if (unknown.length) {
    throw invalidField('include', `Unknown include value${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}: use ${PROFILE_INCLUDES.join(', ')}.`)
  }
  return new Set(wanted as ProfileInclude[])
}
