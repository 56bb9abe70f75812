import { createHash } from 'node:crypto'
import type { AppContext } from '../context.ts'
import { publicPageUrl } from '../profiles/profile-resource.ts'
import type { StoredProfile } from '../store/profiles.ts'

/** The page's name on its card: its title, else `@login`. */
export const nameOf = (profile: StoredProfile) => profile.title?.trim() || `@${profile.login}`

/**
 * What the card shows, hashed: it names the card's URL, so a change of title, login or avatar
 * gives link previews (which cache by URL) a new image, and it keys the memory cache, so an
 * instance that missed a change through Redis still never serves an old card.
 */
export function cardVersion(ctx: AppContext, profile: StoredProfile): string {
  const inputs = [nameOf(profile), publicPageUrl(ctx.config, profile.login), profile.avatar ?? ''].join('\n')
  return createHash('sha256').update(inputs).digest('base64url').slice(0, 16)
}

/** Absolute URL of a profile's card (og:image must be absolute); under `/-/`, which no login can take. */
export const socialCardUrl = (ctx: AppContext, profile: StoredProfile) => `${ctx.config.publicUrl}/-/card/${profile.id}/${cardVersion(ctx, profile)}.png`
