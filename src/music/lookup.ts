import type { AppContext } from '../context.ts'
import { AppError } from '../kernel/errors.ts'
import { musicSlotType as musicSlot } from '../slots/registry.ts'
import { normaliseLink } from '../slots/shared/links.ts'
import { musicPlatformOf, platformRank } from '../slots/shared/music-platforms.ts'
import { cacheKey, musicCache } from './cache.ts'
import { type DeezerClient, deezerClient } from './deezer.ts'
import { type ITunesClient, itunesClient } from './itunes.ts'
import { type OdesliClient, odesliClient } from './odesli.ts'
import type { MatchedBy, MusicLink, MusicLookupResult } from './lookup-result.ts'
import { type MusicQuery, type MusicQueryInput, normalisedQuery, parseMusicQuery } from './query.ts'
import type { Release } from './release.ts'
import { LOOKUP_TIMEOUT_MS, UpstreamFailure } from './upstream.ts'

// The music type's own bounds: a lookup never builds a slot its type would refuse.
const { album: albumSchema, thumbnail: thumbnailSchema, links: linksSchema } = musicSlot.schema.properties
const MAX_LINKS = linksSchema.maxItems ?? 15
const MAX_TEXT = albumSchema.maxLength ?? 200
const MAX_URL = thumbnailSchema.maxLength ?? 2048

interface Providers {
  deezer: DeezerClient
  itunes: ITunesClient
  odesli: OdesliClient
}

/** What the upstreams told us: the release's names and cover, and every link we have for it. */
interface Found {
  title: string | null
  artist: string | null
  thumbnail: string | null
  urls: string[]
}

/** Runs upstream calls, remembering which failed: nothing found plus a failure is a 503, not a 404. */
class Attempts {
  readonly failures: UpstreamFailure[] = []
  constructor(
    readonly deadline: AbortSignal,
    private readonly onFailure: (failure: UpstreamFailure) => void,
  ) {}

  /** The call's answer, or undefined when the upstream failed. */
  async run<T>(call: (deadline: AbortSignal) => Promise<T>): Promise<T | undefined> {
    try {
      return await call(this.deadline)
    } catch (err) {
      if (!(err instanceof UpstreamFailure)) throw err
      this.failures.push(err)
      this.onFailure(err)
      return undefined
    }
  }
}

// Deezer files a barcode as printed: a UPC-A may be stored as its 13-digit EAN form and back.
function otherUpcForm(upc: string): string | null {
  if (upc.length === 12) return `0${upc}`
  return upc.startsWith('0') ? upc.slice(1) : null
}

async function deezerByUpc(deezer: DeezerClient, upc: string, deadline: AbortSignal): Promise<Release | null> {
  const found = await deezer.albumByUpc(upc, deadline)
  const other = otherUpcForm(upc)
  return found ?? (other ? deezer.albumByUpc(other, deadline) : null)
}

/** Completes what one catalogue found with every platform's link from Odesli (when it answers). */
async function withAllLinks(primary: Release, twins: Array<Release | null | undefined>, p: Providers, a: Attempts): Promise<Found> {
  const set = await a.run((d) => p.odesli.links(primary.url, d))
  const others = twins.filter((r): r is Release => !!r)
  return {
    title: primary.title,
    artist: primary.artist ?? set?.artist ?? null,
    thumbnail: primary.thumbnail ?? others.find((r) => r.thumbnail)?.thumbnail ?? set?.thumbnail ?? null,
    // The catalogues' own links come first: Odesli's carry its referral parameters.
    urls: [primary.url, ...others.map((r) => r.url), ...(set?.urls ?? [])],
  }
}

async function byUpc(upc: string, p: Providers, a: Attempts): Promise<Found | null> {
  const [deezer, itunes] = await Promise.all([a.run((d) => deezerByUpc(p.deezer, upc, d)), a.run((d) => p.itunes.albumByUpc(upc, d))])
  const primary = deezer ?? itunes
  return primary ? withAllLinks(primary, [itunes], p, a) : null
}

// Apple publishes no ISRC lookup and Odesli reads none, so Deezer is the only way in.
async function byIsrc(isrc: string, p: Providers, a: Attempts): Promise<Found | null> {
  const track = await a.run((d) => p.deezer.trackByIsrc(isrc, d))
  return track ? withAllLinks(track, [], p, a) : null
}

/** A Deezer or Apple link read by its own catalogue, for when Odesli cannot help. */
async function directLookup(url: string, platform: string, p: Providers, d: AbortSignal): Promise<Release | null> {
  const u = new URL(url)
  if (platform === 'deezer') {
    const m = /\/(album|track)\/(\d+)/.exec(u.pathname)
    if (!m) return null
    return m[1] === 'album' ? p.deezer.album(m[2], d) : p.deezer.track(m[2], d)
  }
  if (platform === 'appleMusic') {
    // music.apple.com/us/album/name/123?i=456 is track 456 of album 123; itunes.apple.com uses /id123.
    const id = u.searchParams.get('i') ?? /\/(?:id)?(\d+)\/?$/.exec(u.pathname)?.[1]
    return id && /^\d+$/.test(id) ? p.itunes.byId(id, d) : null
  }
  return null
}

async function byUrl(url: string, platform: string, p: Providers, a: Attempts): Promise<Found | null> {
  const set = await a.run((d) => p.odesli.links(url, d))
  // The musician's own link stands for its platform; Odesli fills in the others.
  if (set) return { title: set.title, artist: set.artist, thumbnail: set.thumbnail, urls: [url, ...set.urls] }
  const release = await a.run((d) => directLookup(url, platform, p, d))
  if (!release) return null
  return { title: release.title, artist: release.artist, thumbnail: release.thumbnail, urls: [release.url, url] }
}

const plain = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/** How well a search hit answers the query: the exact title counts most, then the artist. */
function score(r: Release, title: string, artist: string | null): number {
  const t = plain(r.title)
  const want = plain(title)
  let s = t === want ? 4 : t.includes(want) ? 2 : 0
  if (artist && r.artist) {
    const ra = plain(r.artist)
    const wa = plain(artist)
    s += ra === wa ? 3 : ra.includes(wa) ? 1 : 0
  }
  return s
}

const sameRelease = (x: Release, y: Release) =>
  x.kind === y.kind && plain(x.title) === plain(y.title) && (!x.artist || !y.artist || plain(x.artist) === plain(y.artist))

async function byTitle(title: string, artist: string | null, kind: 'album' | 'track', p: Providers, a: Attempts): Promise<Found | null> {
  const [deezer, itunes] = await Promise.all([a.run((d) => p.deezer.search(title, artist, kind, d)), a.run((d) => p.itunes.search(title, artist, kind, d))])
  // Each catalogue ranks its own hits; on equal scores Deezer's come first (its covers are larger).
  const hits = [...(deezer ?? []), ...(itunes ?? [])]
  if (!hits.length) return null
  const best = hits.map((r, i) => ({ r, i, s: score(r, title, artist) })).sort((x, y) => y.s - x.s || x.i - y.i)[0].r
  return withAllLinks(
    best,
    hits.filter((r) => r !== best && sameRelease(r, best)),
    p,
    a,
  )
}

function resolve(q: MusicQuery, p: Providers, a: Attempts): Promise<Found | null> {
  switch (q.by) {
    case 'upc':
      return byUpc(q.upc, p, a)
    case 'isrc':
      return byIsrc(q.isrc, p, a)
    case 'url':
      return byUrl(q.url, q.platform, p, a)
    case 'title':
      return byTitle(q.title, q.artist, q.kind, p, a)
  }
}

const clip = (s: string | null, max: number) => (s ? Array.from(s.trim()).slice(0, max).join('') : '')

/** One link per platform, in the platforms' order, each one the music slot accepts as is. */
function platformLinks(urls: string[]): MusicLink[] {
  const links: MusicLink[] = []
  const seen = new Set<string>()
  for (const raw of urls) {
    const normal = normaliseLink(raw)
    if (!normal.ok || normal.url.length > MAX_URL) continue
    const platform = musicPlatformOf(normal.url)
    if (!platform || seen.has(platform.platform)) continue
    seen.add(platform.platform)
    links.push({ platform: platform.platform, label: platform.label, icon: platform.icon, url: normal.url })
  }
  return links.sort((x, y) => platformRank(x.platform) - platformRank(y.platform)).slice(0, MAX_LINKS)
}

function coverUrl(url: string | null): string | null {
  if (!url || url.length > MAX_URL) return null
  return /^https?:\/\/[^\s/]+\/\S*$/i.test(url) ? url : null
}

function toResult(matchedBy: MatchedBy, found: Found): Omit<MusicLookupResult, 'query'> {
  const links = platformLinks(found.urls)
  const album = clip(found.title, MAX_TEXT)
  const artist = clip(found.artist, MAX_TEXT)
  const thumbnail = coverUrl(found.thumbnail)
  return {
    matchedBy,
    album: album || null,
    artist: artist || null,
    thumbnail,
    links,
    // Through the type's own rules, so posting data.slot unchanged stores exactly this.
    slot: {
      type: musicSlot.type,
      data: musicSlot.normalise({
        mode: 'manual',
        style: 'tapter',
        album,
        artist,
        thumbnail: thumbnail ?? '',
        showCover: true,
        links: links.map((l, order) => ({ link: l.url, order })),
      }),
    },
  }
}

const ASK =
  'Pass a UPC (12 or 13 digits), an ISRC (like USRC17607839), a link to the release on a music platform, or its title, optionally with artist to narrow it.'

function nothingFound(q: MusicQuery): AppError {
  let what: string
  switch (q.by) {
    case 'upc':
      what = `No release has the UPC ${q.upc}.`
      break
    case 'isrc':
      what = `No recording has the ISRC ${q.isrc}.`
      break
    case 'url':
      what = 'No music catalogue knows this link.'
      break
    case 'title':
      what = q.artist ? `No ${q.kind === 'track' ? 'track' : 'release'} matches this title by ${q.artist}.` : 'No release matches this title.'
  }
  return new AppError('not_found', { message: `${what} ${ASK}`, errors: null })
}

function unavailable(failures: UpstreamFailure[]): AppError {
  const names = [...new Set(failures.map((f) => f.upstream))].join(', ')
  return new AppError('upstream_unavailable', {
    message: `The music catalogues could not be reached (${names}), so nothing could be found. Try again in a minute.`,
    cause: new AggregateError(failures, failures.map((f) => f.message).join('; ')),
  })
}

type LookupContext = Pick<AppContext, 'config' | 'db' | 'redis' | 'log' | 'metrics'>

/**
 * spec, Music: turns a UPC, ISRC, link or title into a music slot ready to be posted. Answers
 * from the day's cache when it can; otherwise asks Deezer, iTunes and Odesli within
 * LOOKUP_TIMEOUT_MS. 404 when nobody knows the release, 503 when nobody could be asked.
 */
async function lookup(ctx: LookupContext, input: MusicQueryInput): Promise<MusicLookupResult> {
  const q = parseMusicQuery(input)
  const cache = musicCache(ctx.db, ctx.redis)
  const key = cacheKey(normalisedQuery(q))
  const cached = (await cache.get(key)) as Omit<MusicLookupResult, 'query'> | undefined
  if (cached) return { query: input.query, ...cached }

  const { deezerUrl, itunesUrl, odesliUrl } = ctx.config.music
  const providers = { deezer: deezerClient(deezerUrl), itunes: itunesClient(itunesUrl), odesli: odesliClient(odesliUrl) }
  const failed = ctx.metrics.upstreamFailures
  const attempts = new Attempts(AbortSignal.timeout(LOOKUP_TIMEOUT_MS), (f) => failed.inc({ provider: f.upstream }))
  const found = await resolve(q, providers, attempts)
  if (!found) throw attempts.failures.length ? unavailable(attempts.failures) : nothingFound(q)
  if (attempts.failures.length) {
    ctx.log.warn({ failures: attempts.failures.map((f) => f.message) }, 'music lookup answered without some upstreams')
  }
  const result = toResult(q.by, found)
  if (!result.links.length) throw nothingFound(q)
  // A partial answer (an upstream was down) is not kept: the next lookup may find every link.
  if (!attempts.failures.length) await cache.set(key, result)
  return { query: input.query, ...result }
}

export const musicLookupService = Object.freeze({ lookup })
