import { Type } from '@sinclair/typebox'
import { card, onPage } from './shared/block-css.ts'
import { safeUrl } from './shared/html.ts'
import { musicPlatformOf } from './shared/music-platforms.ts'
import { mdText } from './shared/markdown-text.ts'
import { mdLink, outbound, remoteImageOf, words } from './shared/render.ts'
import { Problems } from './shared/rules.ts'
import { strictObject, stringEnum, text } from './shared/schema-parts.ts'
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
const displayOrder = (links: Array<{ order?: number }>) => links.map((_, i) => i).sort((a, b) => (links[a].order ?? a) - (links[b].order ?? b) || a - b)

export default defineSlotType({
  type: 'music',
  title: 'Music release',
  blurb: 'Your song or album, with links to every music app.',
  glyph: 'M9 18V6l11-2v12M9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0zM20 16a3 3 0 1 1-6 0 3 3 0 0 1 6 0z',
  description:
    'An album or track with a cover and one button per streaming platform (1 to 15 links). The usual way to create one is two ' +
    'steps: {{music.lookup}}, then send its data.slot unchanged to {{slots.create}}. By hand: send ' +
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
  fieldWords: {
    mode: { hidden: true },
    style: { hint: 'How the buttons to the music services look.' },
    thumbnail: { label: 'Cover picture', hint: 'The address of the cover picture; the lookup fills it in. Empty for none.' },
    showCover: { hint: 'Shows the cover above the buttons.' },
    links: { label: 'Links to music services', hint: 'One link per service: Spotify, Apple Music, Bandcamp…' },
    'links.*.link': { hint: 'The release’s page on one music service.' },
  },
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
    const cover =
      showCover && thumbnail
        ? r.h`<img class="slot-music-cover" src="${remoteImageOf(r, safeUrl(thumbnail))}" alt="" loading="lazy" decoding="async" referrerpolicy="no-referrer">`
        : ''
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

  css: [
    card('.slot-music'),
    onPage('.slot-music.style-minimal'),
    `/* Music: cover, album and artist, then one row per platform; style-* changes the look. */
.slot-music {
  display: grid;
  grid-template-columns: auto 1fr;
  align-items: center;
  gap: 14px 16px;
}
.slot-music-cover {
  width: 84px;
  height: 84px;
  border-radius: 10px;
  object-fit: cover;
  box-shadow: var(--shadow);
}
.slot-music-meta h2 {
  margin: 0;
}
.slot-music .slot-music-meta p {
  margin: 2px 0 0;
  color: var(--muted);
}
.slot-music-links {
  grid-column: 1 / -1;
  display: flex;
  flex-direction: column;
  gap: 8px;
  margin: 0;
  padding: 0;
  list-style: none;
}
.slot-music .icon:empty {
  display: none;
}
.slot-music-link {
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 10px;
  min-height: 46px;
  padding: 10px 16px;
  border-radius: 12px;
  background: var(--subtle);
  color: var(--text);
  font-weight: 600;
  text-decoration: none;
}
.slot-music-link .slot-music-play {
  margin-inline-start: auto;
  padding: 3px 12px;
  border-radius: 999px;
  background: var(--accent);
  color: var(--on-accent);
  font-size: 0.8125rem;
}
.slot-music.style-bubble .slot-music-link {
  border-radius: 999px;
  background: var(--accent);
  color: var(--on-accent);
}
.slot-music.style-bubble .slot-music-link .slot-music-play {
  background: var(--on-accent);
  color: var(--accent);
}
/* Light: white rows on a light grey card, pale pills, no dark fill anywhere. The house style on a
   light theme is a white or frosted card with tinted rows and dark pills: the grey is deep enough
   not to pass for one. */
.slot-music.style-light {
  background: #e6e6eb;
  color: #1d1d22;
  --muted: #55555f;
}
.slot-music.style-light .slot-music-link {
  background: #ffffff;
  color: #1d1d22;
  box-shadow: 0 1px 2px rgba(29, 29, 34, 0.08);
}
.slot-music.style-light .slot-music-link .slot-music-play {
  background: #e6e6eb;
  color: #1d1d22;
}
.slot-music.style-gradient {
  background: linear-gradient(140deg, #2b1055, #7597de);
  color: #fff;
}
.slot-music.style-gradient .slot-music-link {
  background: rgba(255, 255, 255, 0.16);
  color: #fff;
}
.slot-music.style-gradient .slot-music-link .slot-music-play {
  background: #fff;
  color: #2b1055;
}
.slot-music.style-brutal {
  background: #ffffff;
  color: #000000;
  --muted: #333333;
  border: 3px solid #000;
  border-radius: 4px;
  box-shadow: 6px 6px 0 #000;
}
.slot-music.style-brutal .slot-music-link {
  border: 2px solid #000;
  border-radius: 2px;
  background: #ffe14d;
  color: #000000;
}
.slot-music.style-brutal .slot-music-link .slot-music-play {
  background: #000000;
  color: #ffffff;
}
.slot-music.style-cyber {
  background: #0b0f1a;
  color: #e8fbff;
  box-shadow: 0 0 0 1px #18d7ff, 0 0 24px rgba(24, 215, 255, 0.25);
}
.slot-music.style-cyber .slot-music-link {
  background: transparent;
  border: 1px solid #18d7ff;
  color: #e8fbff;
}
.slot-music.style-cyber .slot-music-link .slot-music-play {
  background: #18d7ff;
  color: #0b0f1a;
}
.slot-music.style-minimal {
  background: transparent;
  box-shadow: none;
  padding: 0 4px;
}
.slot-music.style-minimal .slot-music-link {
  background: transparent;
  color: var(--on-bg);
  border-bottom: 1px solid var(--line);
  border-radius: 0;
  padding: 8px 0;
}
/* The styles that recolour the artist line (over .slot-music .slot-music-meta p). */
.slot-music.style-gradient .slot-music-meta p {
  color: #e6ebff;
}
.slot-music.style-cyber .slot-music-meta p {
  color: #9be9ff;
}`,
  ],
})
