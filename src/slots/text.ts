import { card, onPage } from './shared/block-css.ts'
import { mdText } from './shared/markdown-text.ts'
import { hostOf, mdLink, outbound, say, words } from './shared/render.ts'
import { raw } from './shared/html.ts'
import { RICH_TEXT_TAGS, richText, richTextToMarkdown, visibleText } from './shared/rich-text.ts'
import { Problems } from './shared/rules.ts'
import { optionalLink, strictObject, stringEnum, text } from './shared/schema-parts.ts'
import { defineSlotType } from './types.ts'

const STYLES = ['border', 'plain'] as const

export default defineSlotType({
  type: 'text',
  title: 'Text',
  blurb: 'A few lines or paragraphs of your own words.',
  glyph: 'M5 6h14M5 10h14M5 14h14M5 18h9',
  description:
    `A block of text with an optional heading. \`description\` keeps limited HTML (${RICH_TEXT_TAGS.join(', ')}, no attributes); ` +
    'everything else is stripped on save. A title is required unless the description has text. `textStyle`: border (a card) or plain. ' +
    '`link` makes the whole block a link. Example: {"title": "About", "description": "<p>Photographer in <strong>Lisbon</strong>.</p>"}.',
  writable: true,
  schema: strictObject({
    title: text(200, 'The heading. Required unless description is set.'),
    description: text(20000, `Limited HTML: ${RICH_TEXT_TAGS.join(', ')} are kept (without attributes), everything else is stripped on save.`),
    textStyle: stringEnum(STYLES, { default: 'border', description: 'border: shown as a card; plain: bare text.' }),
    link: optionalLink('Destination of the whole block.'),
  }),
  computed: strictObject({}),
  fieldWords: {
    title: { hint: 'A heading. Leave it empty when the text says it all.' },
    description: {
      hint: 'Your words. Leave an empty line between two paragraphs; start lines with “- ” or “1.” for a list; put **two stars** around words to make them bold.',
      paragraphs: true,
    },
    textStyle: { label: 'Look', hint: 'A card with a border, or plain text on the page.' },
    link: { hint: 'Makes the whole block a link, if you like: a web address, an e-mail address or a phone number.' },
  },
  enumLabels: { textStyle: { border: 'Card with a border', plain: 'Plain text' } },
  example: {
    title: 'About me',
    description: '<p>Photographer in <strong>Lisbon</strong>.</p><ul><li>Portraits</li><li>Weddings</li></ul>',
    textStyle: 'border',
    link: '',
  },

  normalise(d) {
    const p = new Problems()
    const description = richText(d.description)
    if (!d.title.trim() && !visibleText(description)) p.add('title', 'Give the block a title, or a description with some text.')
    const link = p.link('link', d.link)
    return p.done({ ...d, description, link })
  },

  compute: () => ({}),
  links: (d) => (d.link ? [d.link] : []),

  html(s, r) {
    const { title, description, textStyle, link } = s.data
    // Sanitised again on the way out: stored HTML is never trusted blindly.
    const body = r.h`${title ? r.h`<h2>${title}</h2>` : ''}${description ? r.h`<div class="slot-text-body">${raw(richText(description))}</div>` : ''}`
    const inner = link ? outbound(r, s.id, 0, { className: 'slot-text-link', label: title || say(words(r).openHost, { host: hostOf(link) }) }, body) : body
    return r.h`<section class="slot slot-text text-${textStyle}">${inner}</section>`
  },

  markdown(s) {
    const { title, description, link } = s.data
    const parts = [title ? `**${mdText(title)}**` : '', richTextToMarkdown(description), link ? `Opens: ${mdLink(link, link)}` : '']
    return parts.filter(Boolean).join('\n\n')
  },

  css: [
    card('.slot-text.text-border'),
    onPage('.slot-text.text-plain'),
    `.slot-text-body > :first-child {
  margin-top: 0;
}
.slot-text-body > :last-child {
  margin-bottom: 0;
}
.slot-text-body p,
.slot-text-body ul,
.slot-text-body ol {
  margin: 0 0 0.6em;
}
.slot-text-body ul,
.slot-text-body ol {
  padding-left: 1.25em;
}
.slot-text.text-plain {
  padding: 4px 4px;
  text-align: center;
}
.slot-text.text-plain ul,
.slot-text.text-plain ol {
  padding-left: 0;
  list-style-position: inside;
}
.slot-text-link {
  display: block;
  text-decoration: none;
}
.slot-text-link h2 {
  text-decoration: underline;
  text-underline-offset: 3px;
}`,
  ],
})
