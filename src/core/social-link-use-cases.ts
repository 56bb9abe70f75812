import { type Static, Type } from '@sinclair/typebox'
import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { limits } from '../kernel/limits.ts'
import { toProfileResource } from '../profiles/profile-resource.ts'
import { Profile } from '../profiles/profile-schemas.ts'
import { SOCIAL_PLATFORMS, socialIcon } from '../profiles/social-icons.ts'
import { profileService } from '../profiles/profile-service.ts'
import { normaliseLink } from '../slots/shared/links.ts'
import { stringEnum } from '../slots/shared/schema-parts.ts'
import type { Social } from '../store/profiles.ts'
import { invalid, invalidField } from '../kernel/errors.ts'
import { type ProfileKey, type WriteOptions, writeProfile } from './unit-of-work.ts'

// One social link at a time, named by its platform (the icon the server derives from the link),
// so an agent changes one link without sending back the whole row, where a link left out is
// lost. Each is a whole-row write underneath (profileService.update: normalised, checked, locked).

/** The platforms a social link is named by: every icon the server derives, `link` being "no platform". */
export const SOCIAL_PLATFORM_NAMES = [...new Set([...SOCIAL_PLATFORMS.map((p) => p.icon), 'email', 'phone', 'whatsapp', 'link'])]

export const Platform = stringEnum(SOCIAL_PLATFORM_NAMES as [string, ...string[]], {
  description: 'The platform as the page shows it (computed.socials[].icon of the profile), e.g. instagram, tiktok, youtube, email.',
})

export const Position = Type.Integer({ minimum: 0, maximum: limits.socialsPerProfile - 1, description: 'Place in the row of icons, 0 first.' })

export const UpsertSocialLinkInput = Type.Object(
  {
    link: Type.String({ minLength: 1, maxLength: 2048, description: 'The link; its platform is detected from it. A missing scheme becomes https://.' }),
    position: Type.Optional({
      ...Position,
      description: 'Optional. Place in the row of icons, 0 first; omitted: a new link goes last, a replaced one stays where it is.',
    }),
  },
  { additionalProperties: false },
)
export const DeleteSocialLinkInput = Type.Object({ platform: Platform }, { additionalProperties: false })
export const MoveSocialLinkInput = Type.Object({ platform: Platform, position: Position }, { additionalProperties: false })

/** What a one-link write answers: the page as it is now, the platform, and what happened. */
export const SocialLinkAnswer = Type.Object(
  {
    profile: Profile,
    platform: Type.String({ description: 'The platform the link was recognised as (its icon).' }),
    outcome: stringEnum(['added', 'replaced', 'deleted', 'moved'] as const, {
      description: 'added: the page had no link on this platform; replaced: it had one; deleted; moved.',
    }),
  },
  { additionalProperties: false },
)
export type SocialLinkResult = Static<typeof SocialLinkAnswer>

/** The one link of the row on `platform`; two on one platform cannot be told apart by name. */
function findOne(row: Social[], platform: string, field: string): number {
  const at = row.flatMap((s, i) => (socialIcon(s.link) === platform ? [i] : []))
  if (at.length > 1) {
    throw invalidField(
      field,
      `This page has ${at.length} ${platform} links, so the platform does not say which one; change the whole row with the profile update instead.`,
    )
  }
  return at[0] ?? -1
}

const platformsOf = (row: Social[]) => row.map((s) => socialIcon(s.link)).join(', ') || 'none'

/** A row in its new sequence, numbered 0..n-1 (stored orders stay distinct). */
const renumber = (row: Array<{ link: string }>) => row.map((s, i) => ({ link: s.link, order: i }))

function place<T>(row: T[], item: T, position: number | undefined): T[] {
  const out = [...row]
  out.splice(position === undefined ? out.length : Math.min(position, out.length), 0, item)
  return out
}

async function writeRow(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  options: WriteOptions,
  change: (row: Social[]) => { row: Array<{ link: string; order?: number }>; platform: string; outcome: SocialLinkResult['outcome'] },
): Promise<SocialLinkResult> {
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) => {
    const row = [...profile.socials].sort((a, b) => a.order - b.order)
    const { row: next, platform, outcome } = change(row)
    const saved = await profileService.update(trx, profile, { socials: next })
    return { profile: toProfileResource(ctx.config, saved), platform, outcome }
  })
}

/** Adds the link, or replaces the page's link on the same platform (a page has one of each). */
async function upsert(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { link: string; position?: number },
  options: WriteOptions = {},
): Promise<SocialLinkResult> {
  const normal = normaliseLink(input.link)
  if (!normal.ok) throw invalidField('link', normal.message)
  const platform = socialIcon(normal.url)
  return writeRow(ctx, principal, profileKey, options, (row) => {
    // Links without a platform are told apart by the link itself.
    const at = platform === 'link' ? row.findIndex((s) => s.link === normal.url) : findOne(row, platform, 'link')
    if (at < 0) {
      if (row.length >= limits.socialsPerProfile) throw invalid({ link: [`A page has at most ${limits.socialsPerProfile} social links; delete one first.`] })
      return { row: renumber(place<{ link: string }>(row, { link: normal.url }, input.position)), platform, outcome: 'added' }
    }
    const rest = row.filter((_, i) => i !== at)
    if (input.position === undefined) return { row: row.map((s, i) => (i === at ? { ...s, link: normal.url } : s)), platform, outcome: 'replaced' }
    return { row: renumber(place<{ link: string }>(rest, { link: normal.url }, input.position)), platform, outcome: 'replaced' }
  })
}

/** Removes the page's link on `platform`. */
async function remove(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { platform: string },
  options: WriteOptions = {},
): Promise<SocialLinkResult> {
  return writeRow(ctx, principal, profileKey, options, (row) => {
    const at = findOne(row, input.platform, 'platform')
    if (at < 0) throw invalidField('platform', `This page has no ${input.platform} link; its social links are: ${platformsOf(row)}.`)
    return { row: row.filter((_, i) => i !== at), platform: input.platform, outcome: 'deleted' }
  })
}

/** Moves the page's link on `platform` to `position` in the row (0 first); the others keep their sequence. */
async function move(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { platform: string; position: number },
  options: WriteOptions = {},
): Promise<SocialLinkResult> {
  return writeRow(ctx, principal, profileKey, options, (row) => {
    const at = findOne(row, input.platform, 'platform')
    if (at < 0) throw invalidField('platform', `This page has no ${input.platform} link; its social links are: ${platformsOf(row)}.`)
    const rest = row.filter((_, i) => i !== at)
    return { row: renumber(place(rest, row[at], input.position)), platform: input.platform, outcome: 'moved' }
  })
}

export const socialLinkUseCases = Object.freeze({ upsert, remove, move })
