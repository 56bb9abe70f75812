import type SanitizeHtml from 'sanitize-html'
import { onFirstUse } from '../../kernel/on-first-use.ts'

const sanitizeHtml = onFirstUse<typeof SanitizeHtml>('sanitize-html')

// sanitize-html escapes the text it keeps; plain text is stored unescaped (pages escape on output).
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' }

/**
 * spec, Profile update payload: description is plain text, tags stripped, newlines kept.
 * `<br>` becomes a newline so pasted HTML keeps its line breaks; script and style bodies go
 * with their tags. Line endings become `\n`; the ends are trimmed.
 */
export function plainText(raw: string): string {
  const withBreaks = raw.replace(/\r\n?/g, '\n').replace(/<br\s*\/?>/gi, '\n')
  const stripped = sanitizeHtml()(withBreaks, { allowedTags: [], allowedAttributes: {} })
  return stripped.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (e) => ENTITIES[e]).trim()
}
