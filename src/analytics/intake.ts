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

type Arrival = { e: VisitInput; at: Date; slotId: number | null | undefined; socialIndex: number | null }

/**
 * The analytics intake of a context: AppContext.intake makes it on first use. Events are
 * buffered and written in batches (one transaction each); the final flush is registered with
 * ctx.onClose, so it runs before the database closes (closers run last registered first) and a
 * graceful shutdown loses nothing.
 */
export function createIntake(ctx: AppContext): AnalyticsIntake {
  return new BufferedIntake(ctx)
}

class BufferedIntake implements AnalyticsIntake {
  private readonly hash: ReturnType<typeof visitorHasher>
  private buffer: Pending[] = []
  /**
   * Events accepted in this turn of the event loop, hashed once it has run its I/O: a burst of
   * requests gets every answer written before any visitor key is computed (bench/public-page.ts).
   */
  private arrivals: Arrival[] = []
  private closed = false
  private running: Promise<void> = Promise.resolve()
  private queued: Promise<void> | undefined
  // Runs outside any request: an error here would otherwise end the process.
  private readonly afterTurn: () => void

  constructor(private readonly ctx: AppContext) {
    this.hash = visitorHasher(ctx.secret)
    this.afterTurn = guarded(ctx, 'analytics-intake', () => {
      this.hashArrivals()
      if (this.buffer.length >= FLUSH_EVENTS && !this.queued) this.flush().catch(() => {})
    })
    const timer = setInterval(() => {
      if (this.buffer.length > 0 || this.arrivals.length > 0) this.flush().catch(() => {})
    }, FLUSH_INTERVAL_MS)
    timer.unref()
    ctx.onClose(async () => {
      clearInterval(timer)
      // Refuse new events first, so nothing can land in the buffer after its last write.
      this.closed = true
      await this.flush().catch((err) => ctx.log.error({ err, lost: this.buffer.length }, 'analytics: final flush failed; events lost'))
    })
  }

  view = (e: VisitInput): boolean => this.record(e, undefined, null) && counted(this.ctx.metrics.pageViews)

  click = (e: ClickInput): boolean => this.record(e, normaliseId(e.slotId), normaliseId(e.socialIndex)) && counted(this.ctx.metrics.clicks)

  /** One write at a time; a flush asked for while one runs is queued once and takes all that waits. */
  flush = (): Promise<void> => {
    if (!this.queued) {
      const next = this.running.then(() => {
        this.queued = undefined
        return this.drain()
      })
      this.queued = next
      this.running = next.catch(() => {})
    }
    return this.queued
  }

  private record(e: VisitInput, slotId: number | null | undefined, socialIndex: number | null): boolean {
    if (this.closed || isBot(e.userAgent) || isSpeculative(e.purpose)) return false
    if (!Number.isSafeInteger(e.profileId) || e.profileId <= 0) return false
    // A caller that read the address after the visitor hung up has none: counted, as unknown.
    const visit = typeof e.ip === 'string' ? e : { ...e, ip: '' }
    this.arrivals.push({ e: visit, at: e.at ?? new Date(), slotId, socialIndex })
    if (this.arrivals.length === 1) setImmediate(this.afterTurn)
    return true
  }

  private hashArrivals(): void {
    const list = this.arrivals
    this.arrivals = []
    if (list.length === 0) return
    const ownHost = hostOf(this.ctx.config.publicUrl)
    for (const arrival of list) {
      try {
        this.buffer.push(pendingOf(this.hash, arrival, ownHost))
      } catch (err) {
        backgroundFailed(this.ctx, 'analytics-intake', err)
      }
    }
  }

  private async drain(): Promise<void> {
    this.hashArrivals()
    if (this.buffer.length === 0) return
    const events = this.buffer
    this.buffer = []
    try {
      const written = await write(this.ctx, events)
      this.ctx.answerCache.forget(written)
    } catch (err) {
      // Put the events back in front of newer ones and retry on the next flush.
      this.buffer = events.concat(this.buffer)
      if (this.buffer.length > MAX_BUFFERED) {
        const dropped = this.buffer.length - MAX_BUFFERED
        this.buffer = this.buffer.slice(dropped)
        this.ctx.log.error({ dropped }, 'analytics: store unavailable too long; oldest events dropped')
      }
      this.ctx.log.warn({ err, waiting: this.buffer.length }, 'analytics: flush failed; will retry')
      throw err
    }
  }
}

const counted = (counter: { inc(): void }) => {
  counter.inc()
  return true
}

function pendingOf(hash: ReturnType<typeof visitorHasher>, { e, at, slotId, socialIndex }: Arrival, ownHost: string): Pending {
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

async function write(ctx: AppContext, events: Pending[]): Promise<Set<number>> {
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

// The context holds this as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    /** Page views and clicks, buffered and written in batches; flushed on close. */
    readonly intake: AnalyticsIntake
  }
}
