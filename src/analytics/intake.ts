import type { AppContext } from '../context.ts'
import { backgroundFailed, guarded } from '../jobs/background.ts'
import { analyticsRepository } from '../store/analytics.ts'
import { isBot, isSpeculative } from './bots.ts'
import { localDay } from './local-day.ts'
import { countryOf } from './country.ts'
import { RollupBatch, type VisitOrigin } from './rollups.ts'
import { agentFacts, sourceOf, utmSourceOf } from './visit-origin.ts'
import { visitorHasher } from './visitor-key.ts'

export interface VisitInput {
  profileId: number
  /** The client address; only a keyed hash of it (with the agent and page) is kept, for one day. */
  ip: string
  userAgent: string | undefined
  /** The `Purpose` or `Sec-Purpose` header: prefetches and prerenders are not visits. */
  purpose?: string | undefined
  /** The Referer header, reduced to its site before anything is kept. */
  referer?: string | undefined
  /** The request path with its query, read for utm_source only. */
  url?: string | undefined
  at?: Date
}

export interface ClickInput extends VisitInput {
  slotId: number | null
  socialIndex: number | null
}

/** Where public pages report views and clicks; one per AppContext (ctx.intake). */
export interface AnalyticsIntake {
  /** Records a page view; false when it is not counted (bot, prefetch, intake closed). */
  view(e: VisitInput): boolean
  /** Records a click on a block (slotId) or social link (socialIndex); false when not counted. */
  click(e: ClickInput): boolean
  /** Writes everything recorded so far; resolves once it is stored. */
  flush(): Promise<void>
}

/** Buffered events are written at least this often… */
const FLUSH_INTERVAL_MS = 1000
/**
 * …or as soon as this many are waiting: a bound on memory, not a pace. Each write re-reads and
 * re-writes the day's and month's sketches (16 KB each), so under load fewer, larger writes cost
 * the store far less: at 1,000 a busy page wrote 25 transactions a second.
 */
const FLUSH_EVENTS = 20_000
/**
 * While the store is unreachable events wait in memory for the next attempt; past this many the
 * oldest are dropped (and logged) rather than letting a long outage exhaust memory.
 */
const MAX_BUFFERED = 1_000_000

interface Pending {
  profileId: number
  at: number
  hi: number
  lo: number
  /** undefined for a view; null/number for a click. */
  slotId: number | null | undefined
  socialIndex: number | null
  origin: VisitOrigin
}

/**
 * The analytics intake of a context: AppContext.intake makes it on first use. Events are
 * buffered and written in batches (one transaction each); the final flush is registered with
 * ctx.onClose, so it runs before the database closes (closers run last registered first) and a
 * graceful shutdown loses nothing.
 */
export function createIntake(ctx: AppContext): AnalyticsIntake {
  const hash = visitorHasher(ctx.secret)
  let buffer: Pending[] = []
  /**
   * Events accepted in this turn of the event loop, hashed once it has run its I/O: a burst of
   * requests gets every answer written before any visitor key is computed (bench/public-page.ts).
   */
  let arrivals: Array<{ e: VisitInput; at: Date; slotId: number | null | undefined; socialIndex: number | null }> = []
  let closed = false
  let running: Promise<void> = Promise.resolve()
  let queued: Promise<void> | undefined

  const timer = setInterval(() => {
    if (buffer.length > 0 || arrivals.length > 0) flush().catch(() => {})
  }, FLUSH_INTERVAL_MS)
  timer.unref()

  ctx.onClose(async () => {
    clearInterval(timer)
    // Refuse new events first, so nothing can land in the buffer after its last write.
    closed = true
    await flush().catch((err) => ctx.log.error({ err, lost: buffer.length }, 'analytics: final flush failed; events lost'))
  })

  const metrics = ctx.metrics
  const counted = (counter: { inc(): void }) => {
    counter.inc()
    return true
  }

  function record(e: VisitInput, slotId: number | null | undefined, socialIndex: number | null): boolean {
    if (closed || isBot(e.userAgent) || isSpeculative(e.purpose)) return false
    if (!Number.isSafeInteger(e.profileId) || e.profileId <= 0) return false
    // A caller that read the address after the visitor hung up has none: counted, as unknown.
    const visit = typeof e.ip === 'string' ? e : { ...e, ip: '' }
    arrivals.push({ e: visit, at: e.at ?? new Date(), slotId, socialIndex })
    if (arrivals.length === 1) setImmediate(afterTurn)
    return true
  }

  // Runs outside any request: an error here would otherwise end the process.
  const afterTurn = guarded(ctx, 'analytics-intake', () => {
    hashArrivals()
    if (buffer.length >= FLUSH_EVENTS && !queued) flush().catch(() => {})
  })

  function hashArrivals(): void {
    const list = arrivals
    arrivals = []
    if (list.length === 0) return
    const ownHost = hostOf(ctx.config.publicUrl)
    for (const arrival of list) {
      try {
        buffer.push(pendingOf(arrival, ownHost))
      } catch (err) {
        backgroundFailed(ctx, 'analytics-intake', err)
      }
    }
  }

  function pendingOf({ e, at, slotId, socialIndex }: (typeof arrivals)[number], ownHost: string): Pending {
    const digest = hash(e.ip, e.userAgent!, e.profileId, at)
    return {
      profileId: e.profileId,
      at: at.getTime(),
      hi: Number.parseInt(digest.slice(0, 8), 16),
      lo: Number.parseInt(digest.slice(8, 16), 16),
      slotId,
      socialIndex,
      origin: originOf(e, ownHost),
    }
  }

  /** One write at a time; a flush asked for while one runs is queued once and takes all that waits. */
  function flush(): Promise<void> {
    if (!queued) {
      const next = running.then(() => {
        queued = undefined
        return drain()
      })
      queued = next
      running = next.catch(() => {})
    }
    return queued
  }

  async function drain(): Promise<void> {
    hashArrivals()
    if (buffer.length === 0) return
    const events = buffer
    buffer = []
    try {
      const written = await write(events)
      ctx.answerCache.forget(written)
    } catch (err) {
      // Put the events back in front of newer ones and retry on the next flush.
      buffer = events.concat(buffer)
      if (buffer.length > MAX_BUFFERED) {
        const dropped = buffer.length - MAX_BUFFERED
        buffer = buffer.slice(dropped)
        ctx.log.error({ dropped }, 'analytics: store unavailable too long; oldest events dropped')
      }
      ctx.log.warn({ err, waiting: buffer.length }, 'analytics: flush failed; will retry')
      throw err
    }
  }

  async function write(events: Pending[]): Promise<Set<number>> {
    const zones = await analyticsRepository.ownerTimeZones(ctx.db, [...new Set(events.map((e) => e.profileId))])
    const batch = new RollupBatch()
    for (const e of events) {
      const zone = zones.get(e.profileId)
      // The page was deleted since the visit; its rollups are gone with it.
      if (zone === undefined) continue
      const day = localDay(e.at, zone)
      if (e.slotId === undefined) batch.addView(e.profileId, day, e.hi, e.lo, e.origin)
      else batch.addClick(e.profileId, day, e.hi, e.lo, e.slotId, e.socialIndex, e.origin)
    }
    await batch.write(ctx.db)
    return batch.profileIds
  }

  return {
    view: (e) => record(e, undefined, null) && counted(metrics.pageViews),
    click: (e) => record(e, normaliseId(e.slotId), normaliseId(e.socialIndex)) && counted(metrics.clicks),
    flush,
  }
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return ''
  }
}

/** The visit reduced to what is counted; the address, agent and Referer end here. */
function originOf(e: VisitInput, ownHost: string): VisitOrigin {
  const agent = agentFacts(e.userAgent)
  return {
    source: sourceOf({ utmSource: utmSourceOf(e.url), referer: e.referer, app: agent.app, ownHost }),
    country: countryOf(e.ip),
    device: agent.device,
    browser: agent.browser,
  }
}

const normaliseId = (n: number | null | undefined): number | null => (Number.isSafeInteger(n) && n! >= 0 ? n! : null)
