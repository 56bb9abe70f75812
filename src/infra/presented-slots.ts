import type { AppContext } from '../context.ts'
import type { SlotResource } from '../slots/slot-resource.ts'
import type { Db } from '../store/db.ts'
import type { StoredProfile } from '../store/profiles.ts'
import { slotService } from '../slots/slot-service.ts'

/** A page's slots as presented at one slots revision, frozen: every reader shares it. */
export interface PresentedSlots {
  revision: number
  slots: readonly SlotResource[]
  /** The slots as JSON, made once, for faces that send them as they are. */
  json: string
}

// Reads of a page's slots outnumber writes by far, and presenting 50 slots (parse, compute,
// serialise) costs more than the rest of the request. A copy is keyed by the profile's slots
// revision, which every slot write moves in its own transaction (store/slots.ts): a copy is
// fresh exactly while the profile row says so, on every instance, with no invalidation message.
const MAX_BYTES = 32 * 1024 * 1024
const jsonBySlots = new WeakMap<readonly SlotResource[], string>()
/** A context's presented copies, most recently used last, bounded by their JSON's size (AppContext.slotCopies). */
export interface PresentedSlotsCache {
  entries: Map<number, PresentedSlots>
  bytes: number
}

export const createPresentedSlotsCache = (): PresentedSlotsCache => ({ entries: new Map(), bytes: 0 })

/** `value` and everything in it made read-only: copies shared by concurrent readers. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

/**
 * The page's slots as the API presents them, from the copy of the profile's current slots
 * revision when there is one. `db` must not be a transaction with uncommitted slot writes:
 * reads only (use cases' readProfile).
 */
export async function presentedSlots(ctx: AppContext, db: Db, profile: StoredProfile): Promise<PresentedSlots> {
  const cache = ctx.slotCopies
  const hit = cache.entries.get(profile.id)
  if (hit && hit.revision === profile.slotsRevision) {
    // Map keeps insertion order: re-inserting makes this the most recently used.
    cache.entries.delete(profile.id)
    cache.entries.set(profile.id, hit)
    return hit
  }
  const slots = deepFreeze(slotService.present(ctx.config, await slotService.list(db, profile.id)))
  const copy: PresentedSlots = { revision: profile.slotsRevision, slots, json: JSON.stringify(slots) }
  jsonBySlots.set(slots, copy.json)
  if (hit) {
    cache.entries.delete(profile.id)
    cache.bytes -= hit.json.length
  }
  if (copy.json.length <= MAX_BYTES) {
    cache.entries.set(profile.id, copy)
    cache.bytes += copy.json.length
    while (cache.bytes > MAX_BYTES) {
      const [oldest, entry] = cache.entries.entries().next().value as [number, PresentedSlots]
      cache.entries.delete(oldest)
      cache.bytes -= entry.json.length
    }
  }
  return copy
}

/** The JSON made when these very slots were presented, or undefined for any other value. */
export const presentedJson = (value: unknown): string | undefined => (Array.isArray(value) ? jsonBySlots.get(value as readonly SlotResource[]) : undefined)

// The context holds this as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    /** Pages' slots as presented at their current slots revision (infra/presented-slots.ts). */
    readonly slotCopies: PresentedSlotsCache
  }
}
