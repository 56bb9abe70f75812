import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { slotTypes } from '../slots/registry.ts'
import { type Theme, THEMES, themeById, themeTokensCss } from '../profiles/design-tokens.ts'

const read = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8').trim()
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

const types = Object.values(slotTypes)

// The page-wide sheet, then each block type's rules in registry order. A sheet two types share
// (the button styles of button and form) is the same string in both lists: written once.
const layoutCss = [read('./theme.css'), ...new Set(types.flatMap((def) => def.css))].join('\n')

// Each type's script in a function of its own, so the names of one cannot clash with another's.
const script = [read('./page-script.js'), ...types.flatMap((def) => (def.script ? [`;(() => {\n${def.script.trim()}\n})()`] : []))].join('\n')

/** One theme's whole stylesheet, inlined in the page and allowed by its hash in the CSP. */
export interface PageStyle {
  theme: Theme
  css: string
  hash: string
}

// Built once per theme at start: a render only picks one, and the CSP names one hash.
const styles = new Map<number, PageStyle>(
  THEMES.map((theme) => {
    const css = `${themeTokensCss(theme)}\n${layoutCss}`
    return [theme.id, { theme, css, hash: sha256(css) }]
  }),
)

/** The stylesheet of the theme a profile chose (the default theme's for an unknown id). */
export function pageStyle(themeId: number): PageStyle {
  return styles.get(themeById(themeId).id)!
}

/**
 * The page's one progressive script, inlined (one request per page) and allowed by hash in the
 * Content-Security-Policy rather than by 'unsafe-inline'.
 */
export const pageScript = Object.freeze({ script, hash: sha256(script) })
