/**
 * A shared cache (what a CDN does with an origin's answers, after RFC 9111 and RFC 5861) in
 * front of a test app, on a clock the test moves: fresh for `s-maxage`, then served stale while
 * it revalidates for `stale-while-revalidate`, then asked again before answering. Real HTTP to
 * the app on 127.0.0.1; nothing of the app is replaced. `no-store` and `private` answers are
 * never kept.
 */
export interface EdgeAnswer {
  status: number
  body: string
  headers: Headers
  /** HIT (fresh copy), STALE (old copy, revalidating behind), MISS (asked the origin). */
  via: 'HIT' | 'STALE' | 'MISS'
}

interface Entry {
  status: number
  body: string
  headers: Headers
  storedAt: number
  fresh: number
  stale: number
}

const seconds = (cacheControl: string, name: string) => {
  const m = new RegExp(`(?:^|,)\\s*${name}=(\\d+)`).exec(cacheControl)
  return m ? Number(m[1]) : undefined
}

export class TestEdge {
  /** Seconds on the edge's clock; the test moves it. */
  now = 0
  private readonly entries = new Map<string, Entry>()
  private readonly revalidating: Promise<unknown>[] = []

  constructor(
    private readonly origin: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  async get(path: string): Promise<EdgeAnswer> {
    const entry = this.entries.get(path)
    const age = entry ? this.now - entry.storedAt : Number.POSITIVE_INFINITY
    if (entry && age <= entry.fresh) return { ...entry, via: 'HIT' }
    if (entry && age <= entry.fresh + entry.stale) {
      this.revalidating.push(this.fetchAndStore(path, entry))
      return { ...entry, via: 'STALE' }
    }
    const answer = await this.fetchAndStore(path, entry)
    return { ...answer, via: 'MISS' }
  }

  /** Waits for revalidations started by stale answers. */
  async settled(): Promise<void> {
    await Promise.all(this.revalidating.splice(0))
  }

  /** What an operator's purge by Surrogate-Key does: every copy tagged with `key` goes. */
  purge(key: string): number {
    let purged = 0
    for (const [path, entry] of this.entries) {
      if ((entry.headers.get('surrogate-key') ?? '').split(' ').includes(key)) {
        this.entries.delete(path)
        purged++
      }
    }
    return purged
  }

  private async fetchAndStore(path: string, held: Entry | undefined): Promise<Omit<Entry, 'storedAt' | 'fresh' | 'stale'>> {
    const etag = held?.headers.get('etag')
    const res = await fetch(new URL(path, this.origin), { headers: { ...this.headers, ...(etag ? { 'if-none-match': etag } : {}) } })
    const body = await res.text()
    const answer =
      res.status === 304 && held ? { status: held.status, body: held.body, headers: held.headers } : { status: res.status, body, headers: res.headers }
    const policy = res.headers.get('cache-control') ?? ''
    const fresh = seconds(policy, 's-maxage')
    if (fresh === undefined || /no-store|private/.test(policy) || !/public/.test(policy)) {
      this.entries.delete(path)
      return answer
    }
    this.entries.set(path, { ...answer, storedAt: this.now, fresh, stale: seconds(policy, 'stale-while-revalidate') ?? 0 })
    return answer
  }
}
