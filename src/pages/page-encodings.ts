import { type Encoding, encodeOnce, preferredEncoding } from '../http/content-encoding.ts'
import type { CachedPage, PageRepresentation } from './page-cache.ts'

/**
 * A rendered page with its brotli and gzip variants, compressed once per render so a cache hit
 * only picks bytes. Each variant is its own representation (RFC 9110 §8.8.3: a strong validator
 * differs per content coding), so its ETag carries the coding.
 */
export async function withEncodings(page: CachedPage): Promise<CachedPage> {
  const bodies = await encodeOnce(page.body)
  const encoded: Partial<Record<Encoding, PageRepresentation>> = {}
  for (const encoding of ['br', 'gzip'] as const) {
    const body = bodies[encoding]
    if (body.length >= page.body.length) continue
    const etag = `${page.etag.slice(0, -1)}-${encoding}"`
    encoded[encoding] = {
      body,
      etag,
      notModified: { ...page.notModified, etag },
      headers: { ...page.headers, etag, 'content-encoding': encoding, 'content-length': String(body.length) },
    }
  }
  return { ...page, encoded }
}

/** The variant of `page` to send for this Accept-Encoding (the page itself when none fits). */
export function representationOf(page: CachedPage, acceptEncoding: string | undefined): PageRepresentation {
  const encoding = preferredEncoding(acceptEncoding)
  return (encoding && page.encoded?.[encoding]) || page
}
