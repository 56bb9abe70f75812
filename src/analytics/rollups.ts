import { type Db, inTransaction } from '../store/db.ts'
import { analyticsRepository } from '../store/analytics.ts'
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

interface SocialTotals {
  profileId: number
  day: string
  socialIndex: number
  clicks: number
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
  events = 0

  /** A page view by the visitor whose 64-bit key is (hi, lo). */
  addView(profileId: number, day: string, hi: number, lo: number): void {
    const d = this.day(profileId, day)
    d.views++
    d.visitors.addHash(hi, lo)
    this.events++
  }

  /** A click that left the page; slotId/socialIndex say what was clicked (both null: elsewhere). */
  addClick(profileId: number, day: string, hi: number, lo: number, slotId: number | null, socialIndex: number | null): void {
    const d = this.day(profileId, day)
    d.clicks++
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

  get isEmpty(): boolean {
    return this.days.size === 0
  }

  get profileIds(): Set<number> {
    return new Set([...this.days.values()].map((d) => d.profileId))
  }

  /** Writes everything in one transaction, merging sketches with what is stored. */
  async write(db: Db): Promise<void> {
    if (this.isEmpty) return
    const days = [...this.days.values()]
    const slots = [...this.slots.values()]
    await inTransaction(db, async (trx) => {
      await analyticsRepository.lockWriter(trx)
      const storedDays = await analyticsRepository.dailySketches(trx, days)
      const storedSlots = await analyticsRepository.slotSketches(trx, slots)
      await analyticsRepository.addDaily(
        trx,
        days.map((d) => {
          d.visitors.mergeBytes(storedDays.get(`${d.profileId} ${d.day}`))
          return { profileId: d.profileId, day: d.day, views: d.views, clicks: d.clicks, visitors: d.visitors.serialise() }
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
    })
  }

  private day(profileId: number, day: string): DayTotals {
    const key = `${profileId} ${day}`
    let d = this.days.get(key)
    if (!d) this.days.set(key, (d = { profileId, day, views: 0, clicks: 0, visitors: new HyperLogLog() }))
    return d
  }
}
