import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.ts'
import { notFound } from '../kernel/errors.ts'
import { guardedFetch, UrlRefused } from '../media/guarded-fetch.ts'
import { loadSharp } from '../media/sharp.ts'
import { withTempFile } from '../media/temp-files.ts'
import { REMOTE_IMAGE_PATH, verifiedRemoteUrl } from '../rendering/remote-image-url.ts'
import { sendMadeImage } from './image-response.ts'
import { strongEtag } from '../kernel/etag.ts'
import { YOUTUBE_THUMBNAIL_HOST } from '../kernel/youtube-host.ts'

/** Covers and thumbnails are small; a larger answer is not one. */
const MAX_BYTES = 5 * 1024 * 1024
const MAX_PIXELS = 40_000_000
/** Re-encoded no wider or taller than this: blocks are at most 640 CSS px wide, at 2x. */
const MAX_SIDE = 1280
/** Memory for proxied images per process. */
const CACHE_BYTES = 32 * 1024 * 1024
/** A refused upstream is asked again only after this long (a page view must not hammer it). */
const REFUSED_FOR_MS = 10 * 60 * 1000
const MAX_REDIRECTS = 3

interface Proxied {
  body: Buffer
  etag: string
}

type Entry = Proxied | { refusedUntil: number }

/**
 * Where an image is fetched from: the URL itself, except YouTube thumbnails, whose host
 * YOUTUBE_THUMBNAIL_URL can point elsewhere (tests serve them from 127.0.0.1).
 */
function upstreamOf(ctx: AppContext, url: string): string {
  const base = ctx.config.youtubeThumbnailUrl
  return base !== YOUTUBE_THUMBNAIL_HOST && url.startsWith(`${YOUTUBE_THUMBNAIL_HOST}/`) ? `${base}${url.slice(YOUTUBE_THUMBNAIL_HOST.length)}` : url
}

/** Downloads through the SSRF guard and re-encodes as WebP; UrlRefused when it is not an image we take. */
async function download(ctx: AppContext, url: string): Promise<Proxied> {
  const media = ctx.media
  return withTempFile(ctx, async (temp) => {
    await guardedFetch(upstreamOf(ctx, url), {
      resolve: media.resolve,
      connect: media.connect,
      allowHostPorts: ctx.config.uploadUrlAllowHosts,
      maxBytes: MAX_BYTES,
      timeoutMs: media.urlTimeoutMs,
      maxRedirects: MAX_REDIRECTS,
      destination: temp,
    })
    // Re-encoding means the bytes we serve are ones sharp wrote, whatever the upstream sent.
    let body: Buffer
    const sharp = await loadSharp()
    try {
      const format = (await sharp(temp, { limitInputPixels: MAX_PIXELS }).metadata()).format
      if (!format || !['jpeg', 'png', 'webp', 'gif'].includes(format))
        throw new UrlRefused(`The upstream answered ${format ?? 'something'}, not an image we take.`)
      body = await sharp(temp, { limitInputPixels: MAX_PIXELS })
        .rotate()
        .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 82 })
        .toBuffer()
    } catch (err) {
      if (err instanceof UrlRefused) throw err
      throw new UrlRefused('The upstream answer is not an image.')
    }
    return { body, etag: strongEtag(body) }
  })
}

/**
 * `/-/remote/<signature>/<base64url of the URL>`: a remote image on a public page, served from
 * our origin so the page's CSP can keep img-src to 'self' and visitors' addresses never reach
 * the image hosts. Each URL is fetched once per process (concurrent requests share the fetch),
 * kept in memory bounded by bytes, and served with a long Cache-Control. An upstream that
 * fails, answers something else than an image or too much is a 404, remembered for a while.
 */
export function installRemoteImages(app: FastifyInstance, ctx: AppContext): void {
  const cache = new Map<string, Entry>()
  const pending = new Map<string, Promise<Entry>>()
  let bytes = 0
  const weightOf = (entry: Entry) => ('body' in entry ? entry.body.length : 0) + 256
  const remember = (url: string, entry: Entry) => {
    const old = cache.get(url)
    if (old) bytes -= weightOf(old)
    cache.delete(url)
    cache.set(url, entry)
    bytes += weightOf(entry)
    // Map order is recency: the oldest go first.
    for (const [key, value] of cache) {
      if (bytes <= CACHE_BYTES) break
      cache.delete(key)
      bytes -= weightOf(value)
    }
  }

  function fetchOnce(url: string): Promise<Entry> {
    const running = pending.get(url)
    if (running) return running
    const job = download(ctx, url)
      .catch((err): Entry => {
        if (!(err instanceof UrlRefused)) ctx.log.error({ err, url }, 'remote image proxy failed')
        else ctx.log.info({ url, reason: err.message }, 'remote image refused')
        return { refusedUntil: Date.now() + REFUSED_FOR_MS }
      })
      .then((entry) => {
        remember(url, entry)
        return entry
      })
      .finally(() => pending.delete(url))
    pending.set(url, job)
    return job
  }

  async function imageOf(url: string): Promise<Proxied | undefined> {
    let entry = cache.get(url)
    if (entry && 'refusedUntil' in entry && entry.refusedUntil <= Date.now()) entry = undefined
    if (entry) {
      cache.delete(url)
      cache.set(url, entry)
    } else {
      entry = await fetchOnce(url)
    }
    return 'body' in entry ? entry : undefined
  }

  app.get<{ Params: { signature: string; id: string } }>(`${REMOTE_IMAGE_PATH}/:signature/:id`, async (req, reply) => {
    const url = verifiedRemoteUrl(ctx.secret, req.params.signature, req.params.id)
    const image = url ? await imageOf(url) : undefined
    if (!image) throw notFound('image')
    // The signed URL always names the same upstream image: a month, then revalidate.
    return sendMadeImage(req, reply, { ...image, contentType: 'image/webp' }, 'public, max-age=2592000')
  })
}
