import { invalidField } from '../kernel/errors.ts'
import { MUSIC_PLATFORMS, musicPlatformOf } from '../slots/shared/music-platforms.ts'
import { normaliseLink } from '../slots/shared/links.ts'

/** What the musician gave us, recognised (spec, Music: UPC, ISRC, release URL or title). */
export type MusicQuery =
  | { by: 'upc'; upc: string }
  | { by: 'isrc'; isrc: string }
  | { by: 'url'; url: string; platform: string }
  | { by: 'title'; title: string; artist: string | null; kind: 'album' | 'track' }

export interface MusicQueryInput {
  query: string
  artist?: string | null
  type?: 'album' | 'track' | null
}

// UPC-A has 12 digits, EAN-13 13; barcodes are often copied with spaces or dashes between groups.
const UPC = /^\d{12,13}$/
// ISO 3901: country (2 letters), registrant (3 alphanumerics), year (2 digits), designation (5 digits).
const ISRC = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/
// A link with or without its scheme: "open.spotify.com/album/…" counts, "Vol.1" and "AC/DC" do not.
const LOOKS_LIKE_URL = /^([a-z][a-z0-9+.-]*:\/\/\S+|(?:[a-z0-9-]+\.)+[a-z]{2,}\/\S*)$/i

function asUpc(q: string): string | null {
  if (!/^[\d\s-]+$/.test(q)) return null
  const digits = q.replace(/[\s-]/g, '')
  return UPC.test(digits) ? digits : null
}

function asIsrc(q: string): string | null {
  const compact = q.replace(/-/g, '').toUpperCase()
  return ISRC.test(compact) ? compact : null
}

const knownPlatforms = () =>
  MUSIC_PLATFORMS.slice(0, 8)
    .map((p) => p.label)
    .join(', ')

/**
 * True for a query written as a link. Such a query is a link or nothing: off the music platforms
 * it is refused (422) rather than searched for as a title, which would only find nothing.
 */
export const looksLikeLink = (q: string): boolean => LOOKS_LIKE_URL.test(q.trim())

function asUrl(q: string): { url: string; platform: string } | null {
  if (!looksLikeLink(q)) return null
  const link = normaliseLink(q)
  if (!link.ok) throw invalidField('query', `This looks like a link but is not a valid one: ${link.message}`)
  const platform = musicPlatformOf(link.url)
  if (!platform) {
    throw invalidField(
      'query',
      `This link is not on a music platform we know (${knownPlatforms()} and more). Pass a release or track link on one of them, a UPC, an ISRC or a title.`,
    )
  }
  return { url: link.url, platform: platform.platform }
}

export const EMPTY_MUSIC_QUERY = 'Must not be empty: pass a UPC, an ISRC, a release link or a title.'

/** Recognises the query; `artist` and `type` only matter for a title. Throws a 422 naming `query`. */
export function parseMusicQuery(input: MusicQueryInput): MusicQuery {
  const q = input.query.trim()
  if (!q) throw invalidField('query', EMPTY_MUSIC_QUERY)
  const upc = asUpc(q)
  if (upc) return { by: 'upc', upc }
  const isrc = asIsrc(q)
  if (isrc) return { by: 'isrc', isrc }
  const url = asUrl(q)
  if (url) return { by: 'url', ...url }
  const artist = input.artist?.replace(/\s+/g, ' ').trim() || null
  // spec: `type` is what a title-plus-artist search looks for; a bare title finds releases.
  return { by: 'title', title: q.replace(/\s+/g, ' '), artist, kind: artist ? (input.type ?? 'album') : 'album' }
}

/** The same release asked for in different spellings shares one cache entry. */
export function normalisedQuery(q: MusicQuery): unknown {
  switch (q.by) {
    case 'upc':
      // An EAN-13 with a leading 0 is the UPC-A with those 12 digits.
      return ['upc', q.upc.length === 13 && q.upc.startsWith('0') ? q.upc.slice(1) : q.upc]
    case 'isrc':
      return ['isrc', q.isrc]
    case 'url':
      return ['url', q.url]
    case 'title':
      return ['title', q.title.normalize('NFC').toLowerCase(), q.artist?.normalize('NFC').toLowerCase() ?? null, q.kind]
  }
}
