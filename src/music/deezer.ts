import type { Release } from './release.ts'
import { getJson, UpstreamFailure, type UpstreamResponse } from './upstream.ts'

// Shapes of the Deezer public API (https://developers.deezer.com/api), only the fields we read.
interface DeezerArtist {
  id: number
  name: string
  link?: string
}

/** https://developers.deezer.com/api/album (search results carry a subset, without upc). */
interface DeezerAlbum {
  id: number
  title: string
  upc?: string
  link: string
  cover?: string
  cover_big?: string
  cover_xl?: string | null
  record_type?: string
  artist: DeezerArtist
  type: 'album'
}

/** https://developers.deezer.com/api/track */
interface DeezerTrack {
  id: number
  title: string
  isrc?: string
  link: string
  artist: DeezerArtist
  album: { id: number; title: string; cover_big?: string; cover_xl?: string | null }
  type: 'track'
}

interface DeezerList<T> {
  data: T[]
  total: number
  next?: string
}

/** https://developers.deezer.com/api/errors: sent with HTTP 200. */
interface DeezerError {
  error: { type: string; message: string; code: number }
}

// QUOTA (4) and SERVICE_BUSY (700) mean "later"; every other code means the query found nothing.
const RETRY_CODES = new Set([4, 700])

const errorOf = (body: unknown): DeezerError['error'] | undefined =>
  body && typeof body === 'object' && 'error' in body ? (body as DeezerError).error : undefined

const isRetryable = (res: UpstreamResponse) => RETRY_CODES.has(errorOf(res.body)?.code ?? -1)

async function get<T>(baseUrl: string, path: string, deadline: AbortSignal): Promise<T | null> {
  const res = await getJson('deezer', `${baseUrl}${path}`, { deadline, isRetryable })
  if (res.status === 404) return null
  if (res.status !== 200) throw new UpstreamFailure('deezer', `answered ${res.status}`)
  const error = errorOf(res.body)
  if (error) {
    if (RETRY_CODES.has(error.code)) throw new UpstreamFailure('deezer', `${error.type} ${error.code}: ${error.message}`)
    return null
  }
  if (!res.body || typeof res.body !== 'object') throw new UpstreamFailure('deezer', 'answered something other than an object')
  return res.body as T
}

const cover = (c: { cover_xl?: string | null; cover_big?: string; cover?: string }) => c.cover_xl || c.cover_big || c.cover || null

function fromAlbum(a: DeezerAlbum): Release | null {
  if (!a.title || !a.link) return null
  return { kind: 'album', title: a.title, artist: a.artist?.name || null, thumbnail: cover(a), url: a.link }
}

function fromTrack(t: DeezerTrack): Release | null {
  if (!t.title || !t.link) return null
  return { kind: 'track', title: t.title, artist: t.artist?.name || null, thumbnail: t.album ? cover(t.album) : null, url: t.link }
}

// Deezer's advanced search: artist:"…" album:"…"; quotes inside a value would end it early.
const field = (name: string, value: string) => `${name}:"${value.replace(/"/g, ' ').trim()}"`

function searchQuery(title: string, artist: string | null, kind: 'album' | 'track'): string {
  return artist ? `${field('artist', artist)} ${field(kind, title)}` : title
}

/** The Deezer public API: UPC, ISRC, search and id lookups. `null` is "Deezer does not know it". */
export function deezerClient(baseUrl: string) {
  return Object.freeze({
    async albumByUpc(upc: string, deadline: AbortSignal): Promise<Release | null> {
      const album = await get<DeezerAlbum>(baseUrl, `/album/upc:${upc}`, deadline)
      return album && fromAlbum(album)
    },
    async trackByIsrc(isrc: string, deadline: AbortSignal): Promise<Release | null> {
      const track = await get<DeezerTrack>(baseUrl, `/track/isrc:${isrc}`, deadline)
      return track && fromTrack(track)
    },
    async album(id: string, deadline: AbortSignal): Promise<Release | null> {
      const album = await get<DeezerAlbum>(baseUrl, `/album/${encodeURIComponent(id)}`, deadline)
      return album && fromAlbum(album)
    },
    async track(id: string, deadline: AbortSignal): Promise<Release | null> {
      const track = await get<DeezerTrack>(baseUrl, `/track/${encodeURIComponent(id)}`, deadline)
      return track && fromTrack(track)
    },
    /** Best matches first, as Deezer ranks them. */
    async search(title: string, artist: string | null, kind: 'album' | 'track', deadline: AbortSignal): Promise<Release[]> {
      const q = encodeURIComponent(searchQuery(title, artist, kind))
      const list = await get<DeezerList<DeezerAlbum | DeezerTrack>>(baseUrl, `/search/${kind}?q=${q}&limit=10`, deadline)
      if (!list || !Array.isArray(list.data)) return []
      const releases = list.data.map((item) => (kind === 'album' ? fromAlbum(item as DeezerAlbum) : fromTrack(item as DeezerTrack)))
      return releases.filter((r): r is Release => r !== null)
    },
  })
}

export type DeezerClient = ReturnType<typeof deezerClient>
