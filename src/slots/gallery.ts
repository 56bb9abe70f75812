import { Type } from '@sinclair/typebox'
import { card } from './shared/block-css.ts'
import { plainText } from './shared/plain-text.ts'
import { mdText } from './shared/markdown-text.ts'
import { hostOf, lines, linkIndexes, mdLink, outbound, say, words } from './shared/render.ts'
import { responsiveImage } from './shared/responsive-image.ts'
import { Problems } from './shared/rules.ts'
import { optionalLink, strictObject, text } from './shared/schema-parts.ts'
import { defineSlotType } from './types.ts'

const GalleryItem = strictObject({
  path: Type.String({ minLength: 1, maxLength: 1024, description: 'A path returned by {{files.upload}} (one of your uploads); unique within the slot.' }),
  text: text(1000, 'Plain-text caption (HTML is stripped).'),
  link: optionalLink('Where the image leads when tapped.'),
  alt: text(300, 'Alternative text: what the image shows, for people who cannot see it (the caption is read too).', { title: 'Alternative text' }),
})

// How wide an item shows (a 600 px page in src/rendering/theme.css; below, a card with 20 px padding
// and a grid of 140 px-or-wider columns): alone it spans the card; with others, two columns on a phone.
const shownWidth = (count: number) => (count === 1 ? '(max-width: 600px) calc(100vw - 72px), 528px' : '(max-width: 600px) calc(50vw - 41px), 259px')

export default defineSlotType({
  type: 'gallery',
  title: 'Gallery',
  blurb: 'Several photos in a row that visitors can swipe through.',
  glyph: 'M3 7h12v12H3zM7 3h14v14M3 15l4-4 4 4 4-3',
  description:
    'A swipeable set of 1 to 30 images, each with an optional caption and link. Upload each image first ({{files.upload}}) and send ' +
    'the returned paths; each must be one of your uploads and appear once. computed.items[].src holds their public URLs, in order. ' +
    '`alt` on an item says what it shows, for screen readers. ' +
    'Example: {"title": "Work", "items": [{"path": "u1/2026/11/a.webp", "text": "Lisbon", "alt": "Rooftops at dawn"}, {"path": "u1/2026/11/b.webp"}]}.',
  writable: true,
  schema: strictObject({
    title: text(120, 'Shown above the images.'),
    items: Type.Array(GalleryItem, { minItems: 1, maxItems: 30, description: 'The images, in display order.' }),
  }),
  computed: strictObject({
    items: Type.Array(strictObject({ src: Type.String({ description: 'Public URL of the image.' }) }), {
      description: 'One entry per data.items entry, same order.',
    }),
  }),
  fieldWords: {
    title: { hint: 'Shown above the pictures.' },
    items: { hint: 'The pictures, in the order visitors swipe through them.' },
    'items.*.text': { label: 'Caption', hint: 'A line under the picture.' },
    'items.*.link': { hint: 'Where the picture takes visitors when tapped, if anywhere: a web address, an e-mail address or a phone number.' },
    'items.*.alt': { hint: 'What the picture shows, for people who cannot see it (the caption is read too).' },
  },
  enumLabels: {},
  example: {
    title: 'Recent work',
    items: [
      { path: 'u1/2026/11/lisbon.webp', text: 'Lisbon, at dawn', link: '', alt: 'Rooftops of Alfama under a pink sky' },
      { path: 'u1/2026/11/porto.webp', text: '', link: 'https://example.com/porto', alt: '' },
    ],
  },

  normalise(d) {
    const p = new Problems()
    const seen = new Map<string, number>()
    const items = d.items.map((item, i) => {
      const path = p.uploadPath(`items.${i}.path`, item.path)
      const first = seen.get(path)
      if (first !== undefined) p.add(`items.${i}.path`, `Each image may appear once; this path is already items.${first}.`)
      else seen.set(path, i)
      return { ...item, path, text: plainText(item.text), alt: plainText(item.alt), link: p.link(`items.${i}.link`, item.link) }
    })
    return p.done({ ...d, items })
  },

  compute: (d, c) => ({ items: d.items.map((item) => ({ src: c.fileUrl(item.path) })) }),
  reportTitle: (d) => d.items[0]?.text ?? '',
  files: (d) => d.items.map((item, i) => ({ field: `items.${i}.path`, path: item.path })),
  links: (d) => d.items.map((item) => item.link).filter(Boolean),

  html(s, r) {
    const indexes = linkIndexes(s.data.items.map((item) => item.link))
    const items = s.data.items.map((item, i) => {
      // Only the first item of an eager gallery: the others start off to the side or below.
      const img = responsiveImage(r, {
        path: item.path,
        src: s.computed.items[i]?.src ?? '',
        alt: item.alt ?? '',
        sizes: shownWidth(s.data.items.length),
        eager: !!r.eagerImages && i === 0,
      })
      const index = indexes[i]
      const body =
        index === null
          ? img
          : outbound(r, s.id, index, { className: 'slot-gallery-link', label: item.text || say(words(r).openHost, { host: hostOf(item.link) }) }, img)
      return r.h`<li><figure>${body}${item.text ? r.h`<figcaption>${lines(r, item.text)}</figcaption>` : ''}</figure></li>`
    })
    return r.h`<section class="slot slot-gallery">${s.data.title ? r.h`<h2>${s.data.title}</h2>` : ''}<ul class="slot-gallery-items">${items}</ul></section>`
  },

  markdown(s) {
    const head = s.data.title ? `**${mdText(s.data.title)}**\n` : ''
    const items = s.data.items.map((item, i) => {
      const caption = item.text ? ` ${mdText(item.text.replace(/\n/g, ' '))}` : ''
      const link = item.link ? ` → ${mdLink(item.link, item.link)}` : ''
      const alt = item.alt ? mdText(item.alt.replace(/\n/g, ' ')) : `Image ${i + 1}`
      return `- ![${alt}](${s.computed.items[i]?.src ?? item.path})${caption}${link}`
    })
    return `${head}${items.join('\n')}`
  },

  css: [
    card('.slot-gallery'),
    `.slot-gallery-items {
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(140px, 1fr));
  gap: 10px;
  margin: 0;
  padding: 0;
  list-style: none;
}
.slot-gallery-items figure {
  margin: 0;
}
.slot-gallery-items a,
.slot-gallery-items picture {
  display: block;
}
.slot-gallery-items img {
  display: block;
  width: 100%;
  /* The width and height attributes give the ratio before loading; the tile stays square. */
  height: auto;
  aspect-ratio: 1;
  object-fit: cover;
  border-radius: 12px;
  background: var(--line);
}
.slot-gallery-items figcaption {
  margin-top: 6px;
  font-size: 0.8125rem;
  line-height: 1.35;
  color: var(--muted);
}`,
  ],
})
