import { slotTypeOf } from '../slots/registry.ts'

/** What a person would call a block in a report: its own words first, else its type's name. */
export function blockTitle(type: string, data: Record<string, unknown>): string {
  const text = (v: unknown) => (typeof v === 'string' ? v.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim() : '')
  const music = [text(data.artist), text(data.album)].filter(Boolean).join(' – ')
  const items = Array.isArray(data.items) ? (data.items as Array<Record<string, unknown>>) : []
  const own =
    text(data.title) ||
    text(data.subtitle) ||
    music ||
    text(data.buttonText) ||
    (type === 'gallery' ? text(items[0]?.text) : '') ||
    (type === 'faq' ? text(items[0]?.title) : '')
  const name = own || slotTypeOf(type)?.title || type
  return name.length > 120 ? `${name.slice(0, 119)}…` : name
}

/**
 * Whether the public page can count clicks on the block: its type's `links()` (the destinations
 * the click redirect serves) is not empty. Legacy types and data the type no longer accepts
 * count as not clickable, so they never show up as "never clicked".
 */
export function isClickable(type: string, data: Record<string, unknown>): boolean {
  const def = slotTypeOf(type)
  if (!def?.links) return false
  try {
    return def.links(data as never, def.compute(data as never, { fileUrl: (path) => path }) as never).length > 0
  } catch {
    return false
  }
}
