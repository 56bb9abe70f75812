import { invalidField } from '../kernel/errors.ts'

/** spec, GET /profiles/{profileKey}: the extras `include` may ask for. */
export const PROFILE_INCLUDES = ['slots'] as const
export type ProfileInclude = (typeof PROFILE_INCLUDES)[number]

const NOTHING: ReadonlySet<ProfileInclude> = new Set()
const SLOTS: ReadonlySet<ProfileInclude> = new Set(['slots'])

/** `include=slots` (a comma list); an unknown value is 422 naming `include`. */
export function parseInclude(raw: string | undefined): ReadonlySet<ProfileInclude> {
  // What clients send, answered without parsing (every read of a page asks).
  if (!raw) return NOTHING
  if (raw === 'slots') return SLOTS
  const wanted = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const unknown = wanted.filter((w) => !(PROFILE_INCLUDES as readonly string[]).includes(w))
  if (unknown.length) {
    throw invalidField(
      'include',
      `Unknown include value${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}: use ${PROFILE_INCLUDES.join(', ')}.`,
    )
  }
  return new Set(wanted as ProfileInclude[])
}
