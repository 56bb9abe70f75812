import ar from './messages/ar.ts'
import cs from './messages/cs.ts'
import de from './messages/de.ts'
import en from './messages/en.ts'
import es from './messages/es.ts'
import fr from './messages/fr.ts'
import hi from './messages/hi.ts'
import it from './messages/it.ts'
import ja from './messages/ja.ts'
import ko from './messages/ko.ts'
import nl from './messages/nl.ts'
import pl from './messages/pl.ts'
import pt from './messages/pt.ts'
import ru from './messages/ru.ts'
import sv from './messages/sv.ts'
import tr from './messages/tr.ts'
import uk from './messages/uk.ts'
import zh from './messages/zh.ts'

/** The page's own words; the English catalogue defines the keys. */
export type Messages = { readonly [K in keyof typeof en]: string }

/** One catalogue per active language (the languages table's codes). */
export const CATALOGUES: Readonly<Record<string, Messages>> = Object.freeze({ en, de, fr, es, it, pt, nl, pl, uk, ru, tr, sv, cs, ja, ko, zh, ar, hi })

export const DEFAULT_LANGUAGE = 'en'

/** Languages written right to left (the page gets dir="rtl"). */
const RIGHT_TO_LEFT = new Set(['ar', 'he', 'fa', 'ur'])

export const directionOf = (lang: string): 'rtl' | 'ltr' => (RIGHT_TO_LEFT.has(lang.split('-')[0].toLowerCase()) ? 'rtl' : 'ltr')

/** The catalogue of a language code (`pt-BR` reads `pt`), English for one we do not have. */
export function messagesFor(lang: string): Messages {
  return CATALOGUES[lang.toLowerCase()] ?? CATALOGUES[lang.split('-')[0].toLowerCase()] ?? CATALOGUES[DEFAULT_LANGUAGE]
}

/** The catalogue's language that exists for `lang`: what `<html lang>` and Intl should use. */
export function supportedLanguage(lang: string): string {
  const code = lang.toLowerCase()
  if (CATALOGUES[code]) return code
  const base = code.split('-')[0]
  return CATALOGUES[base] ? base : DEFAULT_LANGUAGE
}

/** `{name}` placeholders filled from `vars`; an unknown placeholder stays as written. */
export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))
}

/**
 * The best of our languages for an Accept-Language header (RFC 9110 §12.5.4: q-values, then
 * order), for pages with no owner to ask: the 404 page. English when none matches.
 */
export function languageFromHeader(header: string | undefined): string {
  if (!header) return DEFAULT_LANGUAGE
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';')
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)).find(Boolean)
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q[1]) : 1, i }
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
  for (const r of ranked) {
    const base = r.tag.split('-')[0]
    if (CATALOGUES[base]) return base
  }
  return DEFAULT_LANGUAGE
}
