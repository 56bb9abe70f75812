import { slotTypeOf } from '../slots/registry.ts'
import { type SlotResource, toSlotResource } from '../slots/slot-resource.ts'
import { slotService } from '../slots/slot-service.ts'
import type { Db } from '../store/db.ts'
import type { StoredProfile } from '../store/profiles.ts'
import { slotsRepository } from '../store/slots.ts'

const plain = (v: unknown) =>
  typeof v === 'string'
    ? v
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : ''

/** The type's own words for a block, or nothing when it has none or its data does not read. */
function typeWords(slot: SlotResource): string {
  const def = slotTypeOf(slot.type)
  if (!slot.supported || !def?.reportTitle) return ''
  try {
    return plain(def.reportTitle(slot.data as never))
  } catch {
    return ''
  }
}

/** The title of the event or form a read-only block shows, when it has one. */
const recordTitle = (record: unknown) => (record && typeof record === 'object' && 'title' in record ? plain(record.title) : '')

/**
 * What a person would call a block in a report: its own words first (an event's or a form's
 * title, a picture's description), else its type's name.
 */
export function blockTitle(slot: SlotResource, record?: unknown): string {
  const data = slot.data as Record<string, unknown>
  const name =
    plain(data.title) || plain(data.subtitle) || recordTitle(record) || typeWords(slot) || plain(data.alt) || slotTypeOf(slot.type)?.title || slot.type
  return name.length > 120 ? `${name.slice(0, 119)}…` : name
}

/**
 * Whether the public page can count clicks on the block: its type's `links()` (the destinations
 * the click redirect serves) is not empty. Legacy types and data the type no longer accepts
 * count as not clickable, so they never show up as "never clicked".
 */
export function isClickable(slot: SlotResource, record?: unknown): boolean {
  const def = slotTypeOf(slot.type)
  if (!slot.supported || !def?.links) return false
  try {
    return def.links(slot.data as never, slot.computed as never, record).length > 0
  } catch {
    return false
  }
}

/** The blocks now on a page, in page order, as the presenter shows them (links need no public URL). */
export async function pageBlocks(db: Db, profileId: number): Promise<SlotResource[]> {
  return (await slotsRepository.listByProfile(db, profileId)).map((s) => toSlotResource(s, { fileUrl: (path) => path }))
}

/** pageBlocks with the event or form each read-only block shows (the owner's own), by block id. */
export async function pageBlocksWithRecords(db: Db, profile: StoredProfile): Promise<{ blocks: SlotResource[]; records: Map<number, unknown> }> {
  const stored = await slotsRepository.listByProfile(db, profile.id)
  const records = await slotService.records(db, profile.userId, stored)
  return { blocks: stored.map((s) => toSlotResource(s, { fileUrl: (path) => path })), records }
}
