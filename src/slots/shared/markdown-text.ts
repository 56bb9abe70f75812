/**
 * User text placed into the page markdown, escaped so a reader's parser shows it as the same
 * text and nothing else: a stored `[link](https://evil.example)` in a plain-text field must not
 * become a live link, `**` no emphasis, `<b>` no tag, `# x` no heading. The HTML page shows
 * such text as text; the markdown view must agree with it.
 *
 * CommonMark lets a backslash escape any ASCII punctuation, so every escape below reads back as
 * the character itself. Characters are escaped only where they can start a construct, to keep
 * the markdown readable (and its token count low) for the models it is written for.
 */
export function mdText(text: string): string {
  return text
    .split(/\r\n?|\n/)
    .map((line) => escapeLineStart(escapeInline(line.replace(/^[ \t]+/, ''))))
    .join('\n')
}

/**
 * A run of user text inside a line (rich text between tags): line breaks are spaces there, as in
 * HTML, because a line break would let the next line open a block (`# x` interrupts a paragraph).
 * `atLineStart` says whether the run begins a line (or a list item's content).
 */
export function mdInline(text: string, atLineStart: boolean): string {
  const flat = text.replace(/[ \t]*(?:\r\n?|\n)[ \t]*/g, ' ')
  return atLineStart ? escapeLineStart(escapeInline(flat.replace(/^[ \t]+/, ''))) : escapeInline(flat)
}

// Always meaningful wherever they stand: escapes, code spans, emphasis (`*` works inside words),
// links and images, raw HTML and autolinks, GFM strikethrough and table cells.
const INLINE = /[\\`*[\]<~|]/g
// Only entity references turn `&` into something else (`&lt;` would read as `<`).
const ENTITY = /&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[a-zA-Z][a-zA-Z0-9]{1,31};)/g
// `_` opens or closes emphasis only beside a non-alphanumeric character (CommonMark's flanking
// rules), so `jane_doe` stays as written.
const UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu
// Link literals (GFM's extended autolinks, and parsers that also link `//host`): `https://…`,
// `www.…` and e-mail addresses become links without any markup, so their key characters are
// escaped to leave them text. No `//` survives unescaped.
const DOUBLE_SLASH = /\/(?=\/)/g
const WWW = /(^|[^\p{L}\p{N}])(www)\./giu
const AT = /(?<=[\p{L}\p{N}._%+-])@(?=[\p{L}\p{N}])/gu

function escapeInline(line: string): string {
  return line.replace(INLINE, '\\$&').replace(ENTITY, '\\&').replace(UNDERSCORE, '\\_').replace(DOUBLE_SLASH, '\\/').replace(WWW, '$1$2\\.').replace(AT, '\\@')
}

// What only the start of a line can open: headings, block quotes, list items (and `+`, `-` or
// `=` lines that would underline the line before as a heading, or draw a rule), ordered items.
// A trailing run of `#` would close an ATX heading when the text lands in one (a page title).
function escapeLineStart(line: string): string {
  return line
    .replace(/^([#>+=-])/, '\\$1')
    .replace(/^(\d{1,9})([.)])/, '$1\\$2')
    .replace(/(\s)(#+)(\s*)$/, '$1\\$2$3')
}
