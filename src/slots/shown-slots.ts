import { isShownAt, nextChangeAfter } from './shared/visibility.ts'

/**
 * The slots a public page shows at `now` (not hidden, inside their window), and the
 * first moment after `now` at which that set changes. Every public reader (HTML page, markdown
 * view, click redirect) decides through this one function.
 */
export function shownSlots<S extends { visibility: Parameters<typeof isShownAt>[0] }>(
  slots: readonly S[],
  timeZone: string,
  now: number,
): { slots: S[]; expiresAt: number | undefined } {
  let expiresAt: number | undefined
  const shown: S[] = []
  for (const slot of slots) {
    if (isShownAt(slot.visibility, timeZone, now)) shown.push(slot)
    const next = nextChangeAfter(slot.visibility, timeZone, now)
    if (next !== undefined && (expiresAt === undefined || next < expiresAt)) expiresAt = next
  }
  return { slots: shown, expiresAt }
}

/** Whether one slot shows at `now`. */
export const isSlotShown = (slot: { visibility: Parameters<typeof isShownAt>[0] }, timeZone: string, now: number) => isShownAt(slot.visibility, timeZone, now)
