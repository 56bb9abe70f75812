import type { AppContext } from '../context.ts'
import { publicFileUrl } from '../media/file-url.ts'
import { slotService } from '../slots/slot-service.ts'
import { safeUrl } from '../slots/shared/html.ts'
import { slotTypeOf } from '../slots/registry.ts'
import { toSlotResource } from '../slots/slot-resource.ts'
import { type StoredProfile, visitor } from '../core/use-cases.ts'

export type ClickTarget = { slotId: number; index: number } | { socialOrder: number }

export interface Destination {
  profile: StoredProfile
  url: string
}

/**
 * Where a click on a published page leads, looked up now from the stored slot (its type's
 * `links()`) or the profile's socials, so an edited link takes effect at once and nothing in
 * the request can choose the destination. Undefined for anything not on a published page.
 */
export async function clickDestination(ctx: AppContext, profileId: number, target: ClickTarget): Promise<Destination | undefined> {
  const profile = await visitor.pageById(ctx, profileId)
  if (!profile?.status) return undefined
  let url: string | undefined
  if ('socialOrder' in target) {
    url = profile.socials.find((s) => s.order === target.socialOrder)?.link
  } else {
    const slot = await visitor.slotOf(ctx, profileId, target.slotId)
    const def = slot && slotTypeOf(slot.type)
    if (!slot || !def?.links) return undefined
    // A block off the page (hidden, or outside its window) leads nowhere; its history stays.
    if (!(await visitor.isShownNow(ctx, profile, slot))) return undefined
    // Types compute from normalised data; a row written around the API (a migration, a hand
    // edit) may not be, and a link that cannot be read leads nowhere rather than to a 500.
    const resource = toSlotResource(slot, { fileUrl: (path) => publicFileUrl(ctx.config.publicUrl, path) })
    if (!resource.supported) return undefined
    const record = def.record ? (await slotService.records(ctx.db, profile.userId, [slot])).get(slot.id) : undefined
    try {
      url = def.links(resource.data as never, resource.computed as never, record)[target.index]
    } catch (err) {
      ctx.log.warn({ err, slotId: slot.id }, 'stored slot data could not be read for a click')
      return undefined
    }
  }
  // Stored links were normalised on save; this re-check keeps a legacy row from ever
  // redirecting to javascript: or data:.
  if (!url || safeUrl(url) === '#' || url.startsWith('/')) return undefined
  return { profile, url }
}

/** A Location value: non-ASCII and spaces percent-encoded, the rest left as stored. */
export const locationOf = (url: string) => url.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c))
