import type { Encoding } from '../http/content-encoding.ts'

/** Bytes and headers of one answer: a page as rendered, or one of its compressed variants. */
export interface PageRepresentation {
  body: Buffer
  /** Strong validator: a hash of exactly these bytes. */
  etag: string
  /** Every header of the 200 answer. */
  headers: Record<string, string>
  /** Every header of the 304 answer (validators and policies, no representation metadata). */
  notModified: Record<string, string>
}

/** One rendered representation of a page, ready to send. */
export interface CachedPage {
  profileId: number
  /** The login as stored (the canonical spelling of the address). */
  login: string
  /** The page's active domain when rendered: its canonical address, where the old one redirects. */
  domain?: string
  body: Buffer
  /** Strong validator: a hash of exactly these bytes. */
  etag: string
  /** Every header of the 200 answer. */
  headers: Record<string, string>
  /** Every header of the 304 answer (validators and policies, no representation metadata). */
  notModified: Record<string, string>
  /** The same page compressed (page-encodings.ts), when smaller. */
  encoded?: Partial<Record<Encoding, PageRepresentation>>
  /**
   * Milliseconds since the epoch at which a block of the page appears or disappears by its
   * schedule (Infinity: never). From then on the copy is a miss, on every instance at the same
   * moment, with no message and no polling.
   */
  expiresAt: number
}

/** What a page holds in memory: its body and every compressed variant. */
const weightOf = (page: CachedPage) => page.body.length + (page.encoded?.br?.body.length ?? 0) + (page.encoded?.gzip?.body.length ?? 0)

/**
 * Rendered pages in memory, least recently used first out. Keys name a representation of a
 * login (`html:jane`). Invalidation drops every key of the profile and of each login it names
 * (a login change frees the old address at once). A render that began before an invalidation
 * may have read the old rows, so `set` refuses it when the epoch moved meanwhile.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage>()
  private epoch = 0
  private bytes = 0
  /** The key last made most recently used (it may since have been removed). */
  private newest: string | undefined

  /** Bounded by the bytes of the bodies it holds, so a few huge pages cannot crowd memory. */
  constructor(private readonly maxBytes: number) {}

  /** Take this before reading the rows a render will use. */
  ticket(): number {
    return this.epoch
  }

  get(key: string, now = Date.now()): CachedPage | undefined {
    let hit = this.entries.get(key)
    if (hit && hit.expiresAt <= now) {
      this.remove(key)
      hit = undefined
    }
    // Map keeps insertion order: re-inserting makes this the most recently used. A popular page
    // is asked for many times in a row, and is then already the newest: no need to move it.
    if (hit && key !== this.newest) {
      this.entries.delete(key)
      this.entries.set(key, hit)
      this.newest = key
    }
    return hit
  }

  set(key: string, page: CachedPage, ticket: number): void {
    if (ticket !== this.epoch || weightOf(page) > this.maxBytes) return
    this.remove(key)
    this.entries.set(key, page)
    this.newest = key
    this.bytes += weightOf(page)
    while (this.bytes > this.maxBytes) this.remove(this.entries.keys().next().value!)
  }

  private remove(key: string): void {
    const page = this.entries.get(key)
    if (!page) return
    this.entries.delete(key)
    this.bytes -= weightOf(page)
  }

  invalidate(profileId: number, logins: readonly string[]): void {
    this.epoch++
    const names = new Set(logins.map((l) => l.toLowerCase()))
    for (const [key, page] of this.entries) {
      if (page.profileId === profileId || names.has(key.slice(key.indexOf(':') + 1))) this.remove(key)
    }
  }

  clear(): void {
    this.epoch++
    this.entries.clear()
    this.bytes = 0
  }

  get size(): number {
    return this.entries.size
  }

  get sizeInBytes(): number {
    return this.bytes
  }
}
