import { Type } from '@sinclair/typebox'
import { card } from './shared/block-css.ts'
import { plainText } from './shared/plain-text.ts'
import { mdText } from './shared/markdown-text.ts'
import { lines, mdLink, outbound, remoteImageOf, say, words } from './shared/render.ts'
import { Problems } from './shared/rules.ts'
import { strictObject, text } from './shared/schema-parts.ts'
import { defineSlotType } from './types.ts'
import { YOUTUBE_THUMBNAIL_HOST } from '../kernel/youtube-host.ts'

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/
const HOSTS = new Set(['youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'youtu.be'])
const PATH_KINDS = new Set(['shorts', 'embed', 'live', 'v', 'e'])

/**
 * The video id of a YouTube link: watch?v=, youtu.be/, shorts/, embed/, live/ on youtube.com and
 * its m., music. and www. hosts. Null for anything else.
 */
export function parseVideoId(link: string): string | null {
  const trimmed = link.trim()
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed.replace(/^\/\//, '')}`)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const host = url.hostname.toLowerCase().replace(/^www\./, '')
  if (!HOSTS.has(host)) return null
  const segments = url.pathname.split('/').filter(Boolean)
  let id: string | null | undefined
  if (host === 'youtu.be') id = segments[0]
  else if (segments[0] === 'watch') id = url.searchParams.get('v')
  else if (PATH_KINDS.has(segments[0] ?? '')) id = segments[1]
  return id && VIDEO_ID.test(id) ? id : null
}

const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`
/** The privacy-enhanced player: the one frame the page's CSP allows (src/rendering/page-security-headers.ts). */
const EMBED = 'https://www.youtube-nocookie.com/embed/'
export default defineSlotType({
  type: 'youtube',
  title: 'YouTube video',
  blurb: 'A YouTube video that plays right on your page.',
  glyph: 'M3 6h18v12H3zM10 9l5 3-5 3z',
  description:
    'A YouTube video, shown as a thumbnail that loads the privacy-enhanced (youtube-nocookie.com) player only when tapped. ' +
    'Send any video link (watch?v=, youtu.be/, shorts/, embed/ or live/, on www., m. or music.youtube.com); the video id is ' +
    'extracted server-side into computed.videoId, with computed.embedUrl and computed.thumbnailUrl. ' +
    'Example: {"title": "Showreel", "link": "https://youtu.be/dQw4w9WgXcQ"}.',
  writable: true,
  schema: strictObject({
    title: text(200, 'Shown under the video.'),
    description: text(2000, 'Plain text under the title (HTML is stripped).'),
    link: Type.String({ maxLength: 2048, description: 'A YouTube video link; the video id is extracted server-side.' }),
  }),
  computed: strictObject({
    videoId: Type.String({ description: 'The 11-character YouTube video id.' }),
    embedUrl: Type.String({ description: 'The privacy-enhanced player URL (youtube-nocookie.com).' }),
    thumbnailUrl: Type.String({ description: 'The video thumbnail image.' }),
  }),
  fieldWords: {
    title: { hint: 'Shown under the video.' },
    description: { hint: 'A few words under the title.' },
    link: { hint: 'The video’s address, copied from YouTube: youtube.com/watch?v=… or youtu.be/…' },
  },
  enumLabels: {},
  example: { title: 'Showreel 2026', description: 'Two minutes of my favourite shoots.', link: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },

  normalise(d) {
    const p = new Problems()
    const link = d.link.trim()
    if (!parseVideoId(link)) {
      p.add('link', 'Not a YouTube video link: send one like https://www.youtube.com/watch?v=dQw4w9WgXcQ or https://youtu.be/dQw4w9WgXcQ.')
    }
    const completed = /^[a-z][a-z0-9+.-]*:\/\//i.test(link) ? link : `https://${link.replace(/^\/\//, '')}`
    return p.done({ ...d, description: plainText(d.description), link: completed })
  },

  compute(d) {
    const videoId = parseVideoId(d.link) ?? ''
    return {
      videoId,
      embedUrl: `${EMBED}${videoId}`,
      thumbnailUrl: `${YOUTUBE_THUMBNAIL_HOST}/vi/${videoId}/hqdefault.jpg`,
    }
  },
  links: (_d, c) => [watchUrl(c.videoId)],

  html(s, r) {
    const { title, description } = s.data
    const t = words(r)
    const name = title || t.videoTitle
    // Click-to-load: a plain link to the video (works without script); `script` below swaps in
    // the youtube-nocookie iframe from data-embed-url on click.
    const thumb = r.h`<img src="${remoteImageOf(r, s.computed.thumbnailUrl)}" alt="" loading="lazy" decoding="async" referrerpolicy="no-referrer"><span class="sr-only">${t.playVideo}</span>`
    const player = outbound(r, s.id, 0, { className: 'slot-youtube-player', label: say(t.playNamed, { name }) }, thumb)
    const withEmbed = r.h`<div class="slot-youtube-frame" data-embed-url="${`${s.computed.embedUrl}?autoplay=1`}" data-title="${name}">${player}</div>`
    const caption =
      title || description
        ? r.h`<figcaption>${title ? r.h`<strong>${title}</strong>` : ''}${description ? r.h`<p>${lines(r, description)}</p>` : ''}</figcaption>`
        : ''
    return r.h`<figure class="slot slot-youtube">${withEmbed}${caption}</figure>`
  },

  markdown(s) {
    const { title, description } = s.data
    const link = mdLink(title ? `YouTube video: ${title}` : 'YouTube video', watchUrl(s.computed.videoId))
    return description ? `${link}\n${mdText(description)}` : link
  },

  css: [
    card('.slot-youtube'),
    `/* YouTube: a thumbnail link (works without script); the type's script swaps in the player. */
.slot-youtube {
  margin: 0;
  padding: 0;
  overflow: hidden;
}
.slot-youtube-frame {
  position: relative;
  aspect-ratio: 16 / 9;
  background: #111;
}
.slot-youtube-frame > a,
.slot-youtube-frame iframe {
  position: absolute;
  inset: 0;
  display: block;
  width: 100%;
  height: 100%;
  border: 0;
}
.slot-youtube-frame img {
  width: 100%;
  height: 100%;
  object-fit: cover;
  opacity: 0.92;
}
.slot-youtube-frame > a::before {
  content: "";
  position: absolute;
  z-index: 1;
  left: 50%;
  top: 50%;
  width: 68px;
  height: 48px;
  margin: -24px 0 0 -34px;
  border-radius: 14px;
  background: #e0241c;
  box-shadow: 0 4px 14px rgba(0, 0, 0, 0.3);
  transition: transform 0.15s ease;
}
.slot-youtube-frame > a::after {
  content: "";
  position: absolute;
  z-index: 2;
  left: 50%;
  top: 50%;
  margin: -10px 0 0 -6px;
  border-style: solid;
  border-width: 10px 0 10px 17px;
  border-color: transparent transparent transparent #fff;
}
.slot-youtube-frame > a:hover::before {
  transform: scale(1.08);
}
.slot-youtube figcaption {
  padding: 14px 18px 16px;
}
.slot-youtube figcaption strong {
  display: block;
  font-size: 1rem;
}
.slot-youtube figcaption p {
  margin: 4px 0 0;
  font-size: 0.9375rem;
  color: var(--muted);
}
@media (prefers-reduced-motion: reduce) {
  .slot-youtube-frame > a::before {
    transition: none;
  }
}`,
  ],

  // The privacy-enhanced player is the only thing framed, and only after a click.
  frames: [new URL(EMBED).origin],
  // Click-to-load: the thumbnail is a plain link to the video (works without script); here a
  // click swaps in the player instead, and still counts the click.
  script: `
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('.slot-youtube-frame > a') : null
  if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const frame = link.parentElement
  const src = frame.dataset.embedUrl || ''
  if (!src.startsWith('${EMBED}')) return
  event.preventDefault()
  countClick(link)
  const player = document.createElement('iframe')
  player.src = src
  player.title = frame.dataset.title || 'YouTube video'
  player.allow = 'accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share'
  player.allowFullscreen = true
  player.referrerPolicy = 'strict-origin-when-cross-origin'
  frame.replaceChildren(player)
  player.focus()
})`,
})
