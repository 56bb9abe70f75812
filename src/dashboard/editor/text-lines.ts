// A text block's words as a person types them in the editor's text box, and back: a blank line
// between paragraphs, "- " or "1." at the start of a line for a list, **two stars** for bold,
// _underscores_ for slanted words, ~~two tildes~~ for struck words. The page keeps limited HTML;
// the text box never shows a tag.

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' }
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (e) => ENTITIES[e])
const asText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

const MARKS: Record<string, string> = { strong: '**', em: '_', s: '~~' }

/** Stored rich text (only known tags, no attributes) as the lines of a text box. */
export function richTextAsLines(clean: string): string {
  let out = ''
  const lists: Array<{ ordered: boolean; n: number }> = []
  const newBlock = () => {
    out = out.replace(/[ \t]+$/, '')
    if (out && !out.endsWith('\n\n')) out += out.endsWith('\n') ? '\n' : '\n\n'
  }
  for (const token of clean.split(/(<\/?[a-z]+\s*\/?>)/i)) {
    const tag = /^<(\/?)([a-z]+)/i.exec(token)
    if (!tag) {
      // Line breaks in the HTML source are not the writer's: only <br> and blocks make lines.
      out += decode(token.replace(/\s*\n\s*/g, ' '))
      continue
    }
    const close = tag[1] === '/'
    const name = tag[2].toLowerCase()
    if (name === 'p' || ((name === 'ul' || name === 'ol') && !close && lists.length === 0)) newBlock()
    if (name === 'br') out += '\n'
    else if (name === 'ul' || name === 'ol') {
      if (close) lists.pop()
      else lists.push({ ordered: name === 'ol', n: 0 })
      if (close && lists.length === 0) newBlock()
    } else if (name === 'li' && !close && lists.length) {
      const list = lists[lists.length - 1]
      list.n++
      if (out && !out.endsWith('\n')) out += '\n'
      out += `${'  '.repeat(lists.length - 1)}${list.ordered ? `${list.n}.` : '-'} `
    } else if (MARKS[name]) out += MARKS[name]
  }
  return out
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

const BULLET = /^\s*[-*•]\s+(.*)$/
const NUMBERED = /^\s*\d{1,3}[.)]\s+(.*)$/

/** Bold, slanted and struck words, the rest escaped: what a person typed is text, never markup. */
function inline(line: string): string {
  return asText(line)
    .replace(/\*\*(\S(?:.*?\S)?)\*\*/g, '<strong>$1</strong>')
    .replace(/~~(\S(?:.*?\S)?)~~/g, '<s>$1</s>')
    .replace(/(?<![\p{L}\p{N}_])_(\S(?:.*?\S)?)_(?![\p{L}\p{N}_])/gu, '<em>$1</em>')
}

/** The lines of a text box as rich text: paragraphs, line breaks, lists and marked words. */
export function linesAsRichText(text: string): string {
  const typed = text.replace(/\r\n?/g, '\n').trim()
  if (!typed) return ''
  const html: string[] = []
  for (const block of typed.split(/\n[ \t]*\n/)) {
    let lines: string[] = []
    let list: { tag: 'ul' | 'ol'; items: string[] } | undefined
    const flush = () => {
      if (lines.length) html.push(`<p>${lines.map(inline).join('<br>')}</p>`)
      if (list) html.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${list.tag}>`)
      lines = []
      list = undefined
    }
    for (const line of block.split('\n')) {
      const item = BULLET.exec(line) ?? NUMBERED.exec(line)
      const tag = item ? (BULLET.test(line) ? 'ul' : 'ol') : undefined
      if (tag && list?.tag === tag) list.items.push(item![1].trim())
      else if (tag) {
        flush()
        list = { tag, items: [item![1].trim()] }
      } else {
        if (list) flush()
        lines.push(line.trim())
      }
    }
    flush()
  }
  // One plain line stays as typed, as it always was stored.
  return html.length === 1 && !typed.includes('\n') && html[0].startsWith('<p>') ? html[0].slice(3, -4) : html.join('')
}
