import type SanitizeHtml from 'sanitize-html'
import { onFirstUse } from '../../kernel/on-first-use.ts'
import { mdInline } from './markdown-text.ts'

const sanitizeHtml = onFirstUse<typeof SanitizeHtml>('sanitize-html')

/** spec, text: the only tags a text block keeps, none with attributes. */
export const RICH_TEXT_TAGS = ['p', 'ul', 'ol', 'li', 'strong', 'em', 's', 'u', 'span', 'br'] as const

const options: SanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: {},
  // Script and style bodies go with their tags; other unknown tags keep their text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template', 'iframe', 'object'],
}

/** Limited HTML as stored and rendered: everything outside RICH_TEXT_TAGS is stripped. */
export const richText = (html: string) => sanitizeHtml()(withParagraphs(html), options)

const BLOCK_TAG = /<\/?(p|ul|ol|li)\b/i

/**
 * Text typed as lines (the editor's text box, an API client sending plain text) keeps its
 * breaks: a blank line starts a paragraph, a single one breaks the line. HTML that already
 * has paragraphs or lists is left as written.
 */
function withParagraphs(html: string): string {
  const text = html.replace(/\r\n?/g, '\n').trim()
  if (!text.includes('\n') || BLOCK_TAG.test(text)) return html
  return text
    .split(/\n\s*\n/)
    .map((para) => `<p>${para.trim().replace(/\n/g, '<br>')}</p>`)
    .join('')
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' }
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (e) => ENTITIES[e])

/**
 * The visible text of HTML richText() already cleaned (only known tags, no attributes), for
 * "is it empty?" checks; cleaning it again would double the cost of a save.
 */
export const visibleText = (cleanHtml: string) => decode(cleanHtml.replace(/<br\s*\/?>|<\/(p|li)>/g, '\n').replace(/<[^>]*>/g, '')).trim()

/**
 * Rich text (as richText() leaves it) as markdown: paragraphs, lists, **strong**, _em_, ~~s~~;
 * the text between the tags is escaped (mdInline), so only the tags make markup.
 * The input has only known tags without attributes, so a tag scan is exact.
 */
export function richTextToMarkdown(html: string): string {
  const out: string[] = []
  const lists: Array<{ ordered: boolean; n: number }> = []
  let line = ''
  const flush = () => {
    if (line.trim()) out.push(line.trimEnd())
    line = ''
  }
  for (const token of richText(html).split(/(<\/?[a-z]+\s*\/?>)/)) {
    const tag = /^<(\/?)([a-z]+)/.exec(token)
    if (!tag) {
      // The words are the writer's, not markup: a list item's content starts a line of its own.
      line += mdInline(decode(token), line.trim() === '' || /^\s*(?:-|\d+\.) $/.test(line))
      continue
    }
    const [, close, name] = tag
    switch (name) {
      case 'p':
        flush()
        if (close && lists.length === 0) out.push('')
        break
      case 'br':
        flush()
        break
      case 'ul':
      case 'ol':
        flush()
        if (close) lists.pop()
        else lists.push({ ordered: name === 'ol', n: 0 })
        if (close && lists.length === 0) out.push('')
        break
      case 'li':
        flush()
        if (!close && lists.length) {
          const list = lists[lists.length - 1]
          list.n++
          line = `${'  '.repeat(lists.length - 1)}${list.ordered ? `${list.n}.` : '-'} `
        }
        break
      case 'strong':
        line += '**'
        break
      case 'em':
        line += '_'
        break
      case 's':
        line += '~~'
        break
      default:
        // u and span carry no markdown meaning.
        break
    }
  }
  flush()
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
