import type { Release } from './release.ts'
import { getJson, UpstreamFailure } from './upstream.ts'

// Shapes of the iTunes Search and Lookup API
// (https://performance-partners.apple.com/search-api), only the fields we read.
interface ITunesResult {
  wrapperType: 'collection' | 'track' | 'artist'
  collectionType?: string
  kind?: string
  artistName?: string
  collectionName?: string
  trackName?: string
  collectionViewUrl?: string
  trackViewUrl?: string
  artworkUrl60?: string
  artworkUrl100?: string
}

interface ITunesResponse {
  resultCount: number
  results: ITunesResult[]
}

// Artwork URLs end in /100x100bb.jpg; the same path serves any size asked for.
const largeArtwork = (url: string | undefined) => (url ? url.replace(/\/\d+x\d+(bb)?\.(jpg|png|webp)$/, '/600x600bb.$2') : null)

// `uo` is Apple's affiliate-tracking marker, meaningless on a musician's page.
function cleanUrl(url: string): string {
  try {
    const u = new URL(url)
    u.searchParams.delete('uo')
    return u.toString()
  } catch {
    return url
  }
}

function toRelease(r: ITunesResult): Release | null {
  // Albums and songs carry their name and page under different keys; anything else (videos, artists) is skipped.
  const found =
    r.wrapperType === 'collection'
      ? { kind: 'album' as const, title: r.collectionName, url: r.collectionViewUrl }
      : r.wrapperType === 'track' && r.kind === 'song'
        ? { kind: 'track' as const, title: r.trackName, url: r.trackViewUrl }
        : undefined
  if (!found?.title || !found.url) return null
  return {
    kind: found.kind,
    title: found.title,
    artist: r.artistName || null,
    thumbnail: largeArtwork(r.artworkUrl100 ?? r.artworkUrl60),
    url: cleanUrl(found.url),
  }
}

async function results(baseUrl: string, path: string, deadline: AbortSignal): Promise<Release[]> {
  const res = await getJson('itunes', `${baseUrl}${path}`, { deadline })
  // 400 is Apple's answer to a value it cannot read ("Invalid value(s) for key(s)"): nothing found.
  if (res.status === 400 || res.status === 404) return []
  if (res.status !== 200) throw new UpstreamFailure('itunes', `answered ${res.status}`)
  const body = res.body as ITunesResponse | null
  if (!body || !Array.isArray(body.results)) throw new UpstreamFailure('itunes', 'answered without a results list')
  return body.results.map(toRelease).filter((r): r is Release => r !== null)
}

/** The iTunes Search and Lookup API: UPC, id and search. An empty list is "Apple does not know it". */
export function itunesClient(baseUrl: string) {
  return Object.freeze({
    async albumByUpc(upc: string, deadline: AbortSignal): Promise<Release | null> {
      const found = await results(baseUrl, `/lookup?upc=${encodeURIComponent(upc)}`, deadline)
      return found.find((r) => r.kind === 'album') ?? null
    },
    /** An Apple Music or iTunes id: a collection (album) or a track. */
    async byId(id: string, deadline: AbortSignal): Promise<Release | null> {
      const found = await results(baseUrl, `/lookup?id=${encodeURIComponent(id)}`, deadline)
      return found[0] ?? null
    },
    /** Best matches first, as Apple ranks them. */
    async search(title: string, artist: string | null, kind: 'album' | 'track', deadline: AbortSignal): Promise<Release[]> {
      const term = encodeURIComponent(artist ? `${artist} ${title}` : title)
      const entity = kind === 'album' ? 'album' : 'song'
      const found = await results(baseUrl, `/search?term=${term}&media=music&entity=${entity}&limit=10`, deadline)
      return found.filter((r) => r.kind === kind)
    },
  })
}

export type ITunesClient = ReturnType<typeof itunesClient>
