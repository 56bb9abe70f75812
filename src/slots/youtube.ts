import { Type } from '@sinclair/typebox'
import { plainText } from './shared/plain-text.ts'
import { mdText } from './shared/markdown-text.ts'
import { lines, mdLink, outbound, remoteImageOf, say, words } from './shared/render.ts'
import { Problems } from './shared/rules.ts'
import { strictObject, text } from './shared/schema.ts'
import { defineSlotType } from './types.ts'

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

export default defineSlotType({
  type: 'youtube',
  title: 'YouTube video',
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
      embedUrl: `https://www.youtube-nocookie.com/embed/${videoId}`,
      thumbnailUrl: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`,
    }
  },
  links: (_d, c) => [watchUrl(c.videoId)],

  html(s, r) {
    const { title, description } = s.data
    const t = words(r)
    const name = title || t.videoTitle
    // Click-to-load: a plain link to the video (works without script); the page script swaps in
    // the youtube-nocookie iframe from data-embed-url on click.
    const thumb = r.h`<img src="${remoteImageOf(r, s.computed.thumbnailUrl)}" alt="" loading="lazy" decoding="async" referrerpolicy="no-referrer"><span class="slot-youtube-play">${t.playVideo}</span>`
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
})
