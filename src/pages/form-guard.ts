/** People take longer than this to fill in even one field; scripts post at once. */
export const MIN_FILL_MS = 2000

/**
 * The time check of the spam guard. The page's script writes into the hidden `_e` field how long
 * the page had been open when the form was sent (a render-time stamp in the HTML would make every
 * render differ, and cached pages and ETags depend on renders being equal). Without script the
 * field stays empty and the submission passes: the hidden trap field still guards it, and a
 * person is never refused for having script off.
 */
export function sentTooFast(elapsed: string): boolean {
  if (!/^\d{1,12}$/.test(elapsed)) return false
  return Number(elapsed) < MIN_FILL_MS
}
