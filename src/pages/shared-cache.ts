/**
 * What shared caches (a CDN in front of the service) may do with public answers.
 *
 * A CDN may serve a copy for `s-maxage` seconds and then, while it asks the origin again, a stale
 * one for `stale-while-revalidate` more: a change shows everywhere within their sum, which is
 * PUBLIC_CACHE_SECONDS. Browsers keep nothing without asking (`max-age=0`), so a visitor's reload
 * reaches the CDN. Each answer names its page in `Surrogate-Key` (Fastly, Varnish) and `Cache-Tag`
 * (Cloudflare, Akamai) so an operator can purge one page at once after a write.
 */

/** Seconds a shared cache may serve a copy as fresh, and then stale while it revalidates. */
export interface SharedCacheWindow {
  fresh: number
  stale: number
}

/** The window for PUBLIC_CACHE_SECONDS; undefined when shared caches keep nothing (0). */
export function sharedCacheWindow(seconds: number): SharedCacheWindow | undefined {
  if (seconds <= 0) return undefined
  // A third of the time stale: a CDN answers at once while it refreshes, and a copy is never
  // older than `seconds`, however quiet the page.
  const stale = Math.floor(seconds / 3)
  return { fresh: seconds - stale, stale }
}

/** Cache-Control for a public page or its markdown view. */
export function pageCacheControl(window: SharedCacheWindow | undefined): string {
  // Without a CDN, a browser may keep the page but revalidates every use: each GET is a view.
  if (!window) return 'no-cache'
  return `public, max-age=0, s-maxage=${window.fresh}, stale-while-revalidate=${window.stale}`
}

/**
 * Cache-Control for an image made from a page (social card, QR code, proxied picture): browsers
 * keep it `browserSeconds`, shared caches no longer than a page, so a new cover or login shows
 * with the page.
 */
export function imageCacheControl(window: SharedCacheWindow | undefined, browserSeconds: number): string {
  if (!window) return `public, max-age=${browserSeconds}`
  return `public, max-age=${Math.min(browserSeconds, window.fresh)}, s-maxage=${window.fresh}, stale-while-revalidate=${window.stale}`
}

/** The purge keys of a page: its id (stable across login changes) and its login as stored. */
export function pageSurrogateKeys(profileId: number, login: string): Record<string, string> {
  const keys = [`page-${profileId}`, `login-${login.toLowerCase()}`]
  return { 'surrogate-key': keys.join(' '), 'cache-tag': keys.join(',') }
}

/** The uncached request that counts a view when pages are served from a shared cache. */
export const COUNTING_PATH = '/-/seen/'

/**
 * The counting request a cacheable page carries: a 1-pixel image the browser asks for on every
 * view (it is never stored, `no-store`), so a CDN hit still counts. Bots that fetch only the HTML
 * are not counted, which the intake would mostly have refused anyway.
 */
export function countingPixel(profileId: number): string {
  return `<img src="${COUNTING_PATH}${profileId}.gif" alt="" width="1" height="1" style="position:absolute;left:-9999px" loading="eager" decoding="async">`
}

/** A transparent 1×1 GIF. */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
