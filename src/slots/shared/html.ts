/**
 * Escaping HTML templates: every interpolated value is escaped unless it is already SafeHtml
 * (the result of another `h` template, or `raw()` for markup we generated ourselves).
 * Arrays are joined. null, undefined and false render as nothing.
 */
export class SafeHtml {
  constructor(readonly html: string) {}
  toString() {
    return this.html
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' }

export const escapeHtml = (value: string) => value.replace(/[&<>"'`]/g, (c) => ESCAPES[c])

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return ''
  if (value instanceof SafeHtml) return value.html
  if (Array.isArray(value)) return value.map(render).join('')
  return escapeHtml(String(value))
}

export type HtmlTag = (strings: TemplateStringsArray, ...values: unknown[]) => SafeHtml

export const h: HtmlTag = (strings, ...values) => {
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
  return new SafeHtml(out)
}

/** Markup we produced ourselves (sanitised HTML, inline SVG): passes through unescaped. */
export const raw = (html: string) => new SafeHtml(html)

/**
 * A URL safe to put in href/src: only http(s), mailto, tel and whatsapp (and same-origin paths);
 * anything else (javascript:, data:, vbscript:) becomes "#".
 */
export function safeUrl(url: string): string {
  const trimmed = url.trim()
  if (trimmed.startsWith('/') && !trimmed.startsWith('//')) return trimmed
  try {
    const scheme = new URL(trimmed).protocol
    return ['http:', 'https:', 'mailto:', 'tel:', 'whatsapp:'].includes(scheme) ? trimmed : '#'
  } catch {
    return '#'
  }
}
