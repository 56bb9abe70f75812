import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { linesAsRichText, richTextAsLines } from '../../src/dashboard/editor/text-lines.ts'
import { richText } from '../../src/slots/shared/rich-text.ts'

// The editor's text box shows a text block as lines a person can edit, never its tags; saving
// those lines again keeps the same paragraphs, lists and marked words.

const stored = (typed: string) => richText(linesAsRichText(typed))

describe('a text block in the editor’s text box', () => {
  it('shows lists as lines starting with "- " or a number, bold and slanted words with their marks, no tag', () => {
    const html = stored('Photographer in **Lisbon**, _mostly_ doors.\n\n- Portraits\n- Weddings\n\n1. Write to me\n2. We meet')
    assert.equal(
      html,
      '<p>Photographer in <strong>Lisbon</strong>, <em>mostly</em> doors.</p><ul><li>Portraits</li><li>Weddings</li></ul><ol><li>Write to me</li><li>We meet</li></ol>',
    )
    const lines = richTextAsLines(html)
    assert.equal(lines, 'Photographer in **Lisbon**, _mostly_ doors.\n\n- Portraits\n- Weddings\n\n1. Write to me\n2. We meet')
    assert.doesNotMatch(lines, /<|>/)
  })

  it('shows HTML sent through the API (a list right after a paragraph, struck and underlined words, line breaks) without tags', () => {
    const html = richText('<p>One <s>two</s> <u>three</u><br>four</p><ul>\n<li>a</li>\n<li>b</li>\n</ul><p>end</p>')
    const lines = richTextAsLines(html)
    assert.equal(lines, 'One ~~two~~ three\nfour\n\n- a\n- b\n\nend')
    assert.equal(stored(lines), '<p>One <s>two</s> three<br />four</p><ul><li>a</li><li>b</li></ul><p>end</p>')
  })

  it('keeps what a person typed as text: angle brackets and ampersands are words, a lone line stays a line', () => {
    assert.equal(stored('a < b & <strong>c</strong>'), 'a &lt; b &amp; &lt;strong&gt;c&lt;/strong&gt;')
    assert.equal(richTextAsLines(stored('a < b & <strong>c</strong>')), 'a < b & <strong>c</strong>')
    assert.equal(stored('jane_doe and 2 * 3 * 4'), 'jane_doe and 2 * 3 * 4')
  })

  it('gives back the same lines after a save, whatever was typed', () => {
    const line = fc
      .stringMatching(/^[A-Za-z0-9 ,.!?'&<>]{1,30}$/)
      .map((s) => s.trim())
      .filter((s) => s.length > 0 && !/^\d{1,3}[.)] /.test(s))
    const block = fc.oneof(
      fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.join('\n')),
      fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l) => `- ${l}`).join('\n')),
      fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l, i) => `${i + 1}. ${l}`).join('\n')),
    )
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 4 }), (blocks) => {
        const typed = blocks.join('\n\n')
        const once = richTextAsLines(stored(typed))
        assert.equal(richTextAsLines(stored(once)), once)
        // No tag of the stored HTML shows: every angle bracket in the lines is one the person typed.
        const brackets = (text: string) => text.split('<').length - 1
        assert.equal(brackets(once), brackets(typed))
      }),
    )
  })
})
