import type * as Htmlparser2 from 'htmlparser2'
import type { QuoteType } from 'htmlparser2'
import { onFirstUse } from '../../kernel/on-first-use.ts'
import type { ParseBudget } from './parse-budget.ts'

const htmlparser2 = onFirstUse<typeof Htmlparser2>('htmlparser2')

/**
 * Just enough HTML reading for saved link pages: htmlparser2's tokenizer, one pass over the page
 * whatever it holds (an unclosed tag costs no rescan), attributes in any order and quoting,
 * entities decoded. Its Parser is not used: it keeps open elements with Array#unshift, so a page
 * of unclosed tags would cost quadratic time there. Nothing here renders or trusts what it
 * reads: every text goes on through the slot types' own rules, and every link through the link
 * rules.
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

/** Text as a visitor reads it: runs of white space made one space, the ends trimmed. */
export const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim()

export interface HtmlElement {
  attrs: Record<string, string>
  /**
   * What the element holds as text: entities decoded, a space where a tag was, script and style
   * bodies left out (a script's own text is kept as written).
   */
  text: string
  /** Where its start tag begins, to compare positions. */
  at: number
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'])
const HIDDEN = new Set(['script', 'style'])
/** Longer tag and attribute names are none the readers look for, so they are not even copied. */
const LONGEST_NAME = 16
/** Input between two pauses of the event loop. */
const SLICE = 16 * 1024

/**
 * Every element of `names` in the page, in order. Like the saved pages it was written for, an
 * element ends at the first end tag of its name (so none nests in another of its name) and one
 * never closed is not returned; void elements (img, meta) are returned at their start tag.
 */
export async function readElements(html: string, names: readonly string[], budget: ParseBudget): Promise<Record<string, HtmlElement[]>> {
  const found: Record<string, HtmlElement[]> = Object.fromEntries(names.map((n) => [n, []]))
  const open = new Map<string, { element: HtmlElement; parts: string[] }>()
  let tag = ''
  let tagAt = 0
  let attrs: Record<string, string> | undefined
  let attrName = ''
  let attrValue = ''
  let hidden: string | undefined

  const name = (start: number, end: number) => (end - start <= LONGEST_NAME ? html.slice(start, end).toLowerCase() : '')
  const add = (text: string) => {
    if (hidden) open.get(hidden)?.parts.push(text)
    else for (const o of open.values()) o.parts.push(text)
  }
  const startTag = (selfClosing: boolean) => {
    add(' ')
    if (HIDDEN.has(tag) && !selfClosing) hidden = tag
    if (!attrs) return
    const element: HtmlElement = { attrs, text: '', at: tagAt }
    if (VOID.has(tag) || selfClosing) found[tag].push(element)
    else if (!open.has(tag)) open.set(tag, { element, parts: [] })
    attrs = undefined
  }

  const tokenizer = new (htmlparser2().Tokenizer)(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        tag = name(start, end)
        tagAt = start - 1
        attrs = Object.hasOwn(found, tag) ? Object.create(null) : undefined
      },
      onattribname(start, end) {
        attrName = attrs ? name(start, end) : ''
        attrValue = ''
      },
      onattribdata(start, end) {
        if (attrs) attrValue += html.slice(start, end)
      },
      onattribentity(codepoint) {
        if (attrs) attrValue += String.fromCodePoint(codepoint)
      },
      onattribend(_quote: QuoteType) {
        // As a browser does: the first of two attributes of one name counts.
        if (attrs && attrName && !(attrName in attrs)) attrs[attrName] = attrValue
      },
      onopentagend: () => startTag(false),
      onselfclosingtag: () => startTag(true),
      onclosetag(start, end) {
        const closing = name(start, end)
        if (closing === hidden) hidden = undefined
        const o = open.get(closing)
        if (o) {
          o.element.text = o.parts.join('')
          found[closing].push(o.element)
          open.delete(closing)
        }
        add(' ')
      },
      ontext(start, end) {
        add(html.slice(start, end))
      },
      ontextentity(codepoint) {
        add(String.fromCodePoint(codepoint))
      },
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  )
  for (let i = 0; i < html.length; i += SLICE) {
    tokenizer.write(html.slice(i, i + SLICE))
    await budget.pause()
  }
  tokenizer.end()
  return found
}

/** An address as found on a page, made absolute against the page's own (relative ones need it). */
export function absolute(href: string, base: string | undefined): string | undefined {
  try {
    return new URL(href.trim(), base).href
  } catch {
    return undefined
  }
}
