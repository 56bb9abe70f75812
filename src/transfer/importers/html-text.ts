/**
 * Just enough HTML reading for saved link pages: tags found by pattern, attributes parsed in any
 * order and quoting, entities decoded. Nothing here renders or trusts what it reads: every text
 * goes on through the slot types' own rules, and every link through the link rules.
 */

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1))
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return NAMED[name.toLowerCase()] ?? whole
  })
}

/** The text of an HTML fragment: tags dropped, entities decoded, white space collapsed. */
export const textOf = (html: string) =>
  decodeEntities(html.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim()

export function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  for (const m of tag.matchAll(/([^\s=/>"']+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/g)) {
    out[m[1].toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '')
  }
  return out
}

/** Every `<name …>inner</name>` of the document, in order (not nested ones of the same name). */
export function elements(html: string, name: string): Array<{ attrs: Record<string, string>; inner: string; at: number }> {
  const re = new RegExp(`<${name}\\b([^>]*)>([\\s\\S]*?)<\\/${name}\\s*>`, 'gi')
  return [...html.matchAll(re)].map((m) => ({ attrs: attributes(m[1]), inner: m[2], at: m.index ?? 0 }))
}

/** Every void `<name …>` (img, meta), in order. */
export function voidElements(html: string, name: string): Array<{ attrs: Record<string, string>; at: number }> {
  const re = new RegExp(`<${name}\\b([^>]*)>`, 'gi')
  return [...html.matchAll(re)].map((m) => ({ attrs: attributes(m[1]), at: m.index ?? 0 }))
}

/** An address as found on a page, made absolute against the page's own (relative ones need it). */
export function absolute(href: string, base: string | undefined): string | undefined {
  try {
    return new URL(href.trim(), base).href
  } catch {
    return undefined
  }
}
