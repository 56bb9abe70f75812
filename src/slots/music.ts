import { Type } from '@sinclair/typebox'
import { safeUrl } from './shared/html.ts'
import { musicPlatformOf } from './shared/music-platforms.ts'
import { mdText } from './shared/markdown-text.ts'
import { mdLink, outbound, remoteImageOf, words } from './shared/render.ts'
import { Problems } from './shared/rules.ts'
import { strictObject, stringEnum, text } from './shared/schema.ts'
import { defineSlotType } from './types.ts'

const MODES = ['auto', 'manual'] as const
const STYLES = ['tapter', 'bubble', 'light', 'gradient', 'brutal', 'cyber', 'minimal'] as const

const MusicLink = strictObject({
  link: Type.String({ maxLength: 2048, description: 'The release on one platform (http or https); the platform is detected from the host.' }),
  order: Type.Optional(Type.Integer({ minimum: 0, description: 'Position among the links; defaults to the index in the array.' })),
})

/** Platform of a link, or a plain web link when the host is not a music platform we know. */
function platformOf(link: string): { platform: string; label: string; icon: string } {
  const p = musicPlatformOf(link)
  return p ? { platform: p.platform, label: p.label, icon: p.icon } : { platform: 'website', label: 'Website', icon: 'link' }
}

/** Indexes of data.links in display order: by `order`, then as sent. */
const displayOrder = (links: Array<{ order?: number }>) =>
  links.map((_, i) => i).sort((a, b) => (links[a].order ?? a) - (links[b].order ?? b) || a - b)

export default defineSlotType({
  type: 'music',
  title: 'Music release',
  description:
    'An album or track with a cover and one button per streaming platform (1 to 15 links). The usual way to create one is two ' +
    'steps: GET /music/lookup, then send its data.slot unchanged as the body of POST /profiles/{profileKey}/slots. By hand: send ' +
    '`links` ([{link}]), with `album`, `artist` and `thumbnail` (cover image URL). The platform and icon of each link are detected ' +
    'from its host into computed.links[] (same order as data.links). Keep `mode` manual. ' +
    'Example: {"album": "Blue", "artist": "Jane", "links": [{"link": "https://open.spotify.com/album/x"}]}.',
  writable: true,
  schema: strictObject({
    mode: stringEnum(MODES, { default: 'manual', description: 'Only selects the dashboard dialog section; keep manual for API-created slots.' }),
    style: stringEnum(STYLES, { default: 'tapter', description: 'How the platform buttons look.' }),
    album: text(200, 'Release title.'),
    artist: text(200, 'Artist name.'),
    thumbnail: Type.String({ maxLength: 2048, default: '', description: 'Cover image URL (http or https); empty for none.' }),
    showCover: Type.Boolean({ default: true, description: 'Show the cover image.' }),
    links: Type.Array(MusicLink, { minItems: 1, maxItems: 15, description: 'One link per platform.' }),
  }),
  computed: strictObject({
    links: Type.Array(
      strictObject({
        platform: Type.String({ description: 'Detected platform id (spotify, appleMusic, …); website when not a music platform.' }),
        label: Type.String({ description: 'Platform name for people.' }),
        icon: Type.String({ description: 'Icon name.' }),
      }),
      { description: 'One entry per data.links entry, same order.' },
    ),
  }),
  enumLabels: {
    mode: { auto: 'Found by music lookup', manual: 'Links entered by hand' },
    style: {
      tapter: 'Tapter (the house style)',
      bubble: 'Bubble',
      light: 'Light',
      gradient: 'Gradient',
      brutal: 'Brutal',
      cyber: 'Cyber',
      minimal: 'Minimal',
    },
  },
  example: {
    mode: 'manual',
    style: 'tapter',
    album: 'Blue Hours',
    artist: 'Jane Doe',
    thumbnail: 'https://images.example.com/blue-hours.jpg',
    showCover: true,
    links: [
      { link: 'https://open.spotify.com/album/4aawyAB9vmqN3uQ7FjRGTy', order: 0 },
      { link: 'https://music.apple.com/us/album/blue-hours/1440857781', order: 1 },
    ],
  },

  normalise(d) {
    const p = new Problems()
    const thumbnail = p.link('thumbnail', d.thumbnail, { webOnly: true })
    const links = d.links.map((l, i) => ({ link: p.link(`links.${i}.link`, l.link, { required: true, webOnly: true }), order: l.order ?? i }))
    return p.done({ ...d, thumbnail, links })
  },

  compute: (d) => ({ links: d.links.map((l) => platformOf(l.link)) }),
  reportTitle: (d) => [d.artist.trim(), d.album.trim()].filter(Boolean).join(' – '),
  links: (d) => displayOrder(d.links).map((i) => d.links[i].link),

  html(s, r) {
    const { album, artist, thumbnail, showCover, style } = s.data
    const t = words(r)
    const cover = showCover && thumbnail ? r.h`<img class="slot-music-cover" src="${remoteImageOf(r, safeUrl(thumbnail))}" alt="" loading="lazy" decoding="async" referrerpolicy="no-referrer">` : ''
    const buttons = displayOrder(s.data.links).map((i, index) => {
      const p = s.computed.links[i] ?? platformOf(s.data.links[i].link)
      const inner = r.h`${r.icon ? r.icon(p.icon) : ''}<span class="slot-music-platform">${p.label}</span><span class="slot-music-play" aria-hidden="true">${t.musicPlay}</span>`
      return r.h`<li>${outbound(r, s.id, index, { className: `slot-music-link platform-${p.platform}` }, inner)}</li>`
    })
    const heading = album || artist ? r.h`<div class="slot-music-meta">${album ? r.h`<h2>${album}</h2>` : ''}${artist ? r.h`<p>${artist}</p>` : ''}</div>` : ''
    return r.h`<section class="slot slot-music style-${style}">${cover}${heading}<ul class="slot-music-links">${buttons}</ul></section>`
  },

  markdown(s) {
    const { album, artist, thumbnail, showCover } = s.data
    const head = album || artist ? `**${album ? mdText(album) : 'Untitled release'}**${artist ? ` — ${mdText(artist)}` : ''}\n` : ''
    const cover = showCover && thumbnail ? `![Cover](${thumbnail})\n` : ''
    const links = displayOrder(s.data.links).map((i) => `- ${mdLink(s.computed.links[i]?.label ?? 'Listen', s.data.links[i].link)}`)
    return `${head}${cover}${links.join('\n')}`
  },
})
