import { Type } from '@sinclair/typebox'
import { mdText } from './shared/markdown-text.ts'
import { mdLink, outbound } from './shared/render.ts'
import { Problems } from './shared/rules.ts'
import { strictObject, text } from './shared/schema-parts.ts'
import {
  BUTTON_CSS,
  BUTTON_STYLE_LABELS,
  CUSTOMIZE_WORDS,
  ButtonCustomize,
  buttonStyle,
  customizeField,
  customStyleAttr,
  normaliseCustomize,
} from './shared/style.ts'
import { defineSlotType } from './types.ts'

export default defineSlotType({
  type: 'button',
  title: 'Button',
  blurb: 'A button that takes visitors to any link: your shop, a booking page, an e-mail.',
  glyph: 'M4 8h16a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2v-4a2 2 0 0 1 2-2zM8 12h8',
  description:
    'A full-width button that opens a link: a web page, an e-mail (mailto:), a phone call (tel:) or a WhatsApp chat (whatsapp:). ' +
    'Send `link` and a `title` (or at least a `subtitle`); a link without a scheme is completed to https://. ' +
    '`style` picks a colour style; `custom` needs `customize` ({} takes the default colours). ' +
    'computed.url is the link as the page opens it. Example: {"title": "My shop", "link": "example.com/shop"}.',
  writable: true,
  schema: strictObject({
    title: text(120, 'The button text. Required unless subtitle is set.'),
    subtitle: text(120, 'A second, smaller line.'),
    link: Type.String({
      maxLength: 2048,
      description: 'Where the button leads. A missing scheme is completed to https://; allowed schemes: http, https, mailto, tel, whatsapp.',
    }),
    style: buttonStyle('The colour style.'),
    customize: customizeField(ButtonCustomize),
  }),
  computed: strictObject({ url: Type.String({ description: 'The normalised link the button opens.' }) }),
  fieldWords: {
    title: { hint: 'The words on the button. Leave it empty only when you fill in the second line.' },
    subtitle: { hint: 'A second, smaller line on the button.' },
    style: { hint: 'The button’s colours. Custom lets you choose your own below.' },
    ...CUSTOMIZE_WORDS,
  },
  enumLabels: { style: BUTTON_STYLE_LABELS },
  example: { title: 'Book a session', subtitle: 'Free 15-minute call', link: 'https://cal.example.com/jane', style: 'primary', customize: null },

  normalise(d) {
    const p = new Problems()
    if (!d.title.trim() && !d.subtitle.trim()) p.add('title', 'Give the button a title (or at least a subtitle).')
    const link = p.link('link', d.link, { required: true })
    const { customize, errors } = normaliseCustomize(d.style, d.customize)
    for (const [field, messages] of Object.entries(errors)) for (const m of messages) p.add(field, m)
    return p.done({ ...d, link, customize })
  },

  compute: (d) => ({ url: new URL(d.link).href }),
  links: (_d, c) => [c.url],

  html(s, r) {
    const { title, subtitle, style, customize } = s.data
    const inner = r.h`${title ? r.h`<span class="slot-button-title">${title}</span>` : ''}${
      subtitle ? r.h`<span class="slot-button-subtitle">${subtitle}</span>` : ''
    }`
    const css = style === 'custom' ? customStyleAttr(customize) : ''
    return outbound(r, s.id, 0, { className: `slot slot-button style-${style}`, style: css }, inner)
  },

  markdown(s) {
    const { title, subtitle } = s.data
    const label = title || subtitle
    return `${mdLink(label, s.computed.url)}${title && subtitle ? ` — ${mdText(subtitle)}` : ''}`
  },

  css: [
    BUTTON_CSS,
    `.slot-button-title {
  font-size: 1rem;
  line-height: 1.3;
}
.slot-button-subtitle {
  font-size: 0.8125rem;
  font-weight: 450;
  line-height: 1.3;
  color: var(--btn-sub);
  opacity: 0.92;
}`,
  ],
})
