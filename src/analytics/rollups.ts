import { type Db, inTransaction } from '../store/db.ts'
import { analyticsRepository, type BreakdownDimension, type BreakdownRow } from '../store/analytics.ts'
import { HyperLogLog } from './hll.ts'

interface DayTotals {
  profileId: number
  day: string
  views: number
  clicks: number
  visitors: HyperLogLog
}

interface SlotTotals {
  profileId: number
  day: string
  slotId: number
  clicks: number
  visitors: HyperLogLog
}

interface SketchDelta {
  profileId: number
  slotId: number | undefined
  period: string
  visitors: HyperLogLog
}

interface SocialTotals {
  profileId: number
  day: string
  socialIndex: number
  clicks: number
}

/** Where one visit came from, as the values it is counted under. */
export interface VisitOrigin {
  source: string
  country: string
  device: string
  browser: string
}

/**
 * Events folded into daily rollups in memory, then written in one transaction: counts are added,
 * sketches merged with the stored ones. The intake builds one per flush; the seed command one per
 * page history.
 */
export class RollupBatch {
  private readonly days = new Map<string, DayTotals>()
  private readonly slots = new Map<string, SlotTotals>()
  private readonly socials = new Map<string, SocialTotals>()
  private readonly breakdowns = new Map<string, BreakdownRow>()
  events = 0

  /** A page view by the visitor whose 64-bit key is (hi, lo). */
  addView(profileId: number, day: string, hi: number, lo: number, origin?: VisitOrigin): void {
    const d = this.day(profileId, day)
    d.views++
    if (origin) this.addOrigin(profileId, day, origin, 1, 0)
    d.visitors.addHash(hi, lo)
    this.events++
  }

  /** A click that left the page; slotId/socialIndex say what was clicked (both null: elsewhere). */
  addClick(profileId: number, day: string, hi: number, lo: number, slotId: number | null, socialIndex: number | null, origin?: VisitOrigin): void {
    const d = this.day(profileId, day)
    d.clicks++
    if (origin) this.addOrigin(profileId, day, origin, 0, 1)
    // A visitor who arrives straight at a tracked link is still a visitor of the page.
    d.visitors.addHash(hi, lo)
    if (slotId !== null) {
      const key = `${profileId} ${day} ${slotId}`
      let s = this.slots.get(key)
      if (!s) this.slots.set(key, (s = { profileId, day, slotId, clicks: 0, visitors: new HyperLogLog() }))
      s.clicks++
      s.visitors.addHash(hi, lo)
    }
    if (socialIndex !== null) {
      const key = `${profileId} ${day} ${socialIndex}`
      let s = this.socials.get(key)
      if (!s) this.socials.set(key, (s = { profileId, day, socialIndex, clicks: 0 }))
      s.clicks++
    }
    this.events++
  }

  private addOrigin(profileId: number, day: string, origin: VisitOrigin, views: number, clicks: number): void {
    for (const dimension of ['source', 'country', 'device', 'browser'] as BreakdownDimension[]) {
      const value = origin[dimension]
      const key = `${profileId} ${day} ${dimension} ${value}`
      let b = this.breakdowns.get(key)
      if (!b) this.breakdowns.set(key, (b = { profileId, period: day, dimension, value, views: 0, clicks: 0 }))
      b.views += views
      b.clicks += clicks
    }
  }

  get isEmpty(): boolean {
    return this.days.size === 0
  }

  get profileIds(): Set<number> {
    return new Set([...this.days.values()].map((d) => d.profileId))
  }

  /**
   * Writes everything in one transaction: counts are added; day sketches, and the month sketches
   * that hold the union of their days, are merged with what is stored.
   */
  async write(db: Db): Promise<void> {
    if (this.isEmpty) return
    const days = [...this.days.values()]
    const slots = [...this.slots.values()]
    // Month unions of this batch, taken before the day sketches absorb the stored ones.
    const months = new Map<string, SketchDelta>()
    const addToMonth = (profileId: number, day: string, slotId: number | undefined, visitors: HyperLogLog) => {
      const period = day.slice(0, 7)
      const key = `${profileId} ${period} ${slotId ?? ''}`
      let m = months.get(key)
      if (!m) months.set(key, (m = { profileId, slotId, period, visitors: new HyperLogLog() }))
      m.visitors.merge(visitors)
    }
    for (const d of days) addToMonth(d.profileId, d.day, undefined, d.visitors)
    for (const s of slots) addToMonth(s.profileId, s.day, s.slotId, s.visitors)
    const monthRows = [...months.values()]

    await inTransaction(db, async (trx) => {
      await analyticsRepository.lockWriter(trx)
      const dayKeys = days.map((d) => ({ profileId: d.profileId, period: d.day }))
      const slotKeys = slots.map((s) => ({ profileId: s.profileId, period: s.day, slotId: s.slotId }))
      const [storedDays, storedSlots, storedMonths, storedSlotMonths] = await Promise.all([
        analyticsRepository.storedSketches(trx, 'analytics_daily', dayKeys),
        analyticsRepository.storedSketches(trx, 'analytics_slot_daily', slotKeys),
        analyticsRepository.storedSketches(
          trx,
          'analytics_monthly',
          monthRows.filter((m) => m.slotId === undefined),
        ),
        analyticsRepository.storedSketches(
          trx,
          'analytics_slot_monthly',
          monthRows.filter((m) => m.slotId !== undefined),
        ),
      ])
      await analyticsRepository.addDaily(
        trx,
        days.map((d) => {
          d.visitors.mergeBytes(storedDays.get(`${d.profileId} ${d.day}`))
          return { profileId: d.profileId, day: d.day, views: d.views, clicks: d.clicks, uniques: d.visitors.estimate(), visitors: d.visitors.serialise() }
        }),
      )
      await analyticsRepository.addSlotDaily(
        trx,
        slots.map((s) => {
          s.visitors.mergeBytes(storedSlots.get(`${s.profileId} ${s.day} ${s.slotId}`))
          return { profileId: s.profileId, slotId: s.slotId, day: s.day, clicks: s.clicks, visitors: s.visitors.serialise() }
        }),
      )
      await analyticsRepository.addSocialDaily(trx, [...this.socials.values()])
      await analyticsRepository.addBreakdowns(trx, [...this.breakdowns.values()])
      await analyticsRepository.putMonthly(
        trx,
        monthRows.map((m) => {
          const stored =
            m.slotId === undefined ? storedMonths.get(`${m.profileId} ${m.period}`) : storedSlotMonths.get(`${m.profileId} ${m.period} ${m.slotId}`)
          m.visitors.mergeBytes(stored)
          return { profileId: m.profileId, slotId: m.slotId, period: m.period, visitors: m.visitors.serialise() }
        }),
      )
    })
  }

  private day(profileId: number, day: string): DayTotals {
    const key = `${profileId} ${day}`
    let d = this.days.get(key)
    if (!d) this.days.set(key, (d = { profileId, day, views: 0, clicks: 0, visitors: new HyperLogLog() }))
    return d
  }
}

/**
 * Recomputes a page's month sketches (its own and its blocks') from the day sketches stored for
 * those months, for writers that replace days instead of adding to them (the seed command).
 */
export async function rebuildMonths(db: Db, profileId: number, months: string[]): Promise<void> {
  if (months.length === 0) return
  const ranges = months.map((m) => ({ from: `${m}-01`, to: `${m}-31` }))
  await inTransaction(db, async (trx) => {
    await analyticsRepository.lockWriter(trx)
    const [days, slotDays] = await Promise.all([
      analyticsRepository.readDailySketches(trx, [profileId], ranges),
      analyticsRepository.readSlotDailySketches(trx, [profileId], ranges),
    ])
    const unions = new Map<string, SketchDelta>()
    for (const row of [...days, ...slotDays]) {
      const period = row.period.slice(0, 7)
      const key = `${period} ${row.slotId ?? ''}`
      let u = unions.get(key)
      if (!u) unions.set(key, (u = { profileId, slotId: row.slotId, period, visitors: new HyperLogLog() }))
      u.visitors.mergeBytes(row.visitors)
    }
    await analyticsRepository.deleteMonths(trx, profileId, months)
    await analyticsRepository.rebuildBreakdownMonths(trx, profileId, months)
    await analyticsRepository.putMonthly(
      trx,
      [...unions.values()].map((u) => ({ profileId, slotId: u.slotId, period: u.period, visitors: u.visitors.serialise() })),
    )
  })
}
