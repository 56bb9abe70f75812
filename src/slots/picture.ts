import { Type } from '@sinclair/typebox'
import { mdText } from './shared/markdown-text.ts'
import { hostOf, mdLink, outbound, say, words } from './shared/render.ts'
import { responsiveImage } from './shared/responsive-image.ts'
import { plainText } from './shared/plain-text.ts'
import { Problems } from './shared/rules.ts'
import { optionalLink, strictObject, stringEnum, text } from './shared/schema-parts.ts'
import { defineSlotType } from './types.ts'

const SIZES = ['large', 'medium', 'small'] as const

// How wide each size shows (src/rendering/theme.css: a 600 px page with 16 px padding; below: medium 72 %, small 46 %).
const SHOWN_WIDTH: Record<(typeof SIZES)[number], string> = {
  large: '(max-width: 600px) calc(100vw - 32px), 568px',
  medium: '(max-width: 600px) calc(72vw - 23px), 409px',
  small: '(max-width: 600px) calc(46vw - 15px), 261px',
}

export default defineSlotType({
  type: 'picture',
  title: 'Picture',
  blurb: 'One photo or image, with a caption and, if you like, a link.',
  glyph: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15.5 9.5h.01',
  description:
    'One image, optionally opening a link when tapped. Upload the image first ({{files.upload}}) and send the returned `path` ' +
    '(not a URL); it must be one of your uploads. computed.src is its public URL. `size`: large (full width), medium or small. ' +
    '`alt` says what the picture shows, for screen readers (empty for a decorative one). ' +
    'Example: {"path": "u1/2026/11/photo.webp", "link": "https://example.com", "size": "large"}.',
  writable: true,
  schema: strictObject({
    path: Type.String({ minLength: 1, maxLength: 1024, description: 'A path returned by {{files.upload}} (one of your uploads), not a URL.' }),
    link: optionalLink('Where the picture leads when tapped.'),
    size: stringEnum(SIZES, { default: 'large', description: 'Display width.' }),
    alt: text(300, 'Alternative text: what the picture shows, for people who cannot see it. Empty for a decorative picture.', { title: 'Alternative text' }),
  }),
  computed: strictObject({ src: Type.String({ description: 'Public URL of the image.' }) }),
  fieldWords: {
    link: { hint: 'Where the picture takes visitors when tapped, if anywhere: a web address, an e-mail address or a phone number.' },
    size: { hint: 'How wide the picture shows on your page.' },
    alt: { hint: 'What the picture shows, for people who cannot see it. Leave it empty when it is only decoration.' },
  },
  enumLabels: { size: { large: 'Large (full width)', medium: 'Medium', small: 'Small' } },
  example: { path: 'u1/2026/11/photo.webp', link: 'https://example.com/portfolio', size: 'large', alt: 'The author at work in her studio' },

  normalise(d) {
    const p = new Problems()
    const path = p.uploadPath('path', d.path)
    const link = p.link('link', d.link)
    return p.done({ ...d, path, link, alt: plainText(d.alt) })
  },

  compute: (d, c) => ({ src: c.fileUrl(d.path) }),
  files: (d) => [{ field: 'path', path: d.path }],
  links: (d) => (d.link ? [d.link] : []),

  html(s, r) {
    const img = responsiveImage(r, { path: s.data.path, src: s.computed.src, alt: s.data.alt ?? '', sizes: SHOWN_WIDTH[s.data.size], eager: !!r.eagerImages })
    const body = s.data.link ? outbound(r, s.id, 0, { className: 'slot-picture-link', label: say(words(r).openHost, { host: hostOf(s.data.link) }) }, img) : img
    return r.h`<figure class="slot slot-picture size-${s.data.size}">${body}</figure>`
  },

  markdown(s) {
    const image = `![${mdText((s.data.alt ?? '').replace(/\n/g, ' ')) || 'Picture'}](${s.computed.src})`
    return s.data.link ? `${image}\nOpens: ${mdLink(s.data.link, s.data.link)}` : image
  },

  css: [
    `.slot-picture {
  display: flex;
  justify-content: center;
}
.slot-picture img,
.slot-picture picture,
.slot-picture a {
  display: block;
  width: 100%;
}
.slot-picture img {
  height: auto;
  border-radius: var(--radius);
  box-shadow: var(--shadow);
}
.slot-picture.size-medium > * {
  width: 72%;
}
.slot-picture.size-small > * {
  width: 46%;
}`,
  ],
})
