import type { LinkSet } from './release.ts'
import { getJson, UpstreamFailure } from './upstream.ts'

// Shapes of the Odesli (song.link) API, https://odesli.co/ → "API" (v1-alpha.1).
interface OdesliPlatformLink {
  entityUniqueId: string
  url: string
  nativeAppUriMobile?: string
  nativeAppUriDesktop?: string
}

interface OdesliEntity {
  id: string
  type: 'song' | 'album'
  title?: string
  artistName?: string
  thumbnailUrl?: string
  thumbnailWidth?: number
  thumbnailHeight?: number
  apiProvider: string
  platforms: string[]
}

interface OdesliResponse {
  entityUniqueId: string
  userCountry: string
  pageUrl: string
  linksByPlatform: Record<string, OdesliPlatformLink | undefined>
  entitiesByUniqueId: Record<string, OdesliEntity | undefined>
}

// A store page duplicates the same company's streaming link when both are there (itunes beside
// appleMusic, amazonStore beside amazonMusic); Google Play Music is gone.
const STREAMING_OF: Record<string, string> = { itunes: 'appleMusic', amazonStore: 'amazonMusic' }
const GONE = new Set(['google', 'googleStore'])

/** Odesli: every platform's link for one known link. `null` is "Odesli cannot resolve this link". */
export function odesliClient(baseUrl: string) {
  return Object.freeze({
    async links(url: string, deadline: AbortSignal): Promise<LinkSet | null> {
      const res = await getJson('odesli', `${baseUrl}/v1-alpha.1/links?url=${encodeURIComponent(url)}`, { deadline })
      // Odesli answers 400/404 {statusCode, code: "could_not_resolve_entity"} for links it cannot place.
      if (res.status >= 400 && res.status < 500) return null
      if (res.status !== 200) throw new UpstreamFailure('odesli', `answered ${res.status}`)
      const body = res.body as OdesliResponse | null
      if (!body || typeof body.linksByPlatform !== 'object' || !body.linksByPlatform) {
        throw new UpstreamFailure('odesli', 'answered without linksByPlatform')
      }
      const entity = body.entitiesByUniqueId?.[body.entityUniqueId]
      const links = body.linksByPlatform
      const urls = Object.entries(links)
        .filter(([platform]) => !GONE.has(platform) && !(STREAMING_OF[platform] && links[STREAMING_OF[platform]]))
        .map(([, link]) => link?.url)
        .filter((u): u is string => typeof u === 'string' && u !== '')
      if (!urls.length) return null
      return {
        title: entity?.title || null,
        artist: entity?.artistName || null,
        thumbnail: entity?.thumbnailUrl || null,
        urls,
      }
    },
  })
}

export type OdesliClient = ReturnType<typeof odesliClient>
