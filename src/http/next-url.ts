/** Where a signed-in user lands when no `next` was given. */
export const HOME = '/my-links'

/**
 * `next` as a same-origin path, or HOME: never another host (`//evil`, `/\evil`, `https://…`),
 * never a control character a browser might strip into one. What is left is written in ASCII:
 * a Location header cannot carry a character above U+00FF (Node refuses to send it, a 500), and
 * one between U+0080 and U+00FF would be read as Latin-1 by some clients and UTF-8 by others.
 * So every non-ASCII character is percent-encoded as UTF-8, as a browser would send it; a lone
 * surrogate, which has no UTF-8, leads HOME.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2000) return HOME
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return HOME
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return HOME
  try {
    const ascii = next.replace(/[^\u0000-\u007f]+/gu, (run) => encodeURIComponent(run))
    return ascii.length > 6000 ? HOME : ascii
  } catch {
    return HOME
  }
}
