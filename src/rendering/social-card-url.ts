import { createHash } from 'node:crypto'
import type { AppContext } from '../context.ts'
import type { StoredProfile } from '../store/profiles.ts'

/** The page's name on its card: its title, else `@login`. */
export const nameOf = (profile: StoredProfile) => profile.title?.trim() || `@${profile.login}`

/**
 * What the card shows, hashed: it names the card's URL, so a change of title, address (a login,
 * or the page's own domain turning active or not) or avatar gives link previews (which cache by
 * URL) a new image, and it keys the memory cache, so an instance that missed a change through
 * Redis still never serves an old card. `address` is the page's canonical address.
 */
export function cardVersion(profile: StoredProfile, address: string): string {
  const inputs = [nameOf(profile), address, profile.avatar ?? ''].join('\n')
  return createHash('sha256').update(inputs).digest('base64url').slice(0, 16)
}

/** Absolute URL of a profile's card (og:image must be absolute); under `/-/`, which no login can take. */
export const socialCardUrl = (ctx: AppContext, profile: StoredProfile, address: string) =>
  `${ctx.config.publicUrl}/-/card/${profile.id}/${cardVersion(profile, address)}.png`
