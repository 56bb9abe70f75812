import type { DayRange, SketchRow } from '../store/analytics.ts'
import { HyperLogLog } from './hll.ts'
import { addDays, endOfMonth, startOfMonth } from './local-day.ts'

/** Which stored sketches together hold the visitors of a period: whole months, then single days. */
export interface Coverage {
  /** YYYY-MM of months whose month sketch is used. */
  months: string[]
  /** The days outside those months, as ranges. */
  days: DayRange[]
}

/**
 * Splits [from, to] into month sketches where they hold exactly the period's visitors, and day
 * ranges for the rest. A month counts when it lies inside the period, nothing in it has been
 * purged (it starts on or after `keptFrom`), and no day after `to` can have data in it (it ends
 * by `to`, or `to` is today or later). With `wholeMonths` false, everything is days.
 */
export function coverage(range: DayRange, today: string, keptFrom: string, wholeMonths = true): Coverage {
  if (!wholeMonths) return { months: [], days: [range] }
  const months: string[] = []
  const days: DayRange[] = []
  for (let start = startOfMonth(range.from); start <= range.to; start = addDays(endOfMonth(start), 1)) {
    const end = endOfMonth(start)
    if (start >= range.from && start >= keptFrom && (end <= range.to || range.to >= today)) {
      months.push(start.slice(0, 7))
      continue
    }
    const from = start < range.from ? range.from : start
    const to = end > range.to ? range.to : end
    const last = days[days.length - 1]
    if (last && addDays(last.to, 1) === from) last.to = to
    else days.push({ from, to })
  }
  return { months, days }
}

/**
 * The part of a coverage inside [from, to]: a timeline bucket. Buckets must not cut through a
 * month the coverage takes whole (monthly buckets never do; weekly ones use a days-only coverage).
 */
export function within(c: Coverage, range: DayRange): Coverage {
  return {
    // A month taken whole belongs to the bucket it starts in (the last one may end before the month does).
    months: c.months.filter((m) => `${m}-01` >= range.from && `${m}-01` <= range.to),
    days: c.days.map((d) => ({ from: d.from > range.from ? d.from : range.from, to: d.to < range.to ? d.to : range.to })).filter((d) => d.from <= d.to),
  }
}

/** Every day range the coverages need sketches for (one query reads them all). */
export function dayRangesOf(...coverages: Coverage[]): DayRange[] {
  return coverages.flatMap((c) => c.days)
}

/** The union of the sketches (month and day rows mixed) that the coverage selects. */
export function unionOf(rows: SketchRow[], c: Coverage): HyperLogLog {
  const months = new Set(c.months)
  const picked = rows.filter((r) => (r.period.length === 7 ? months.has(r.period) : c.days.some((d) => r.period >= d.from && r.period <= d.to)))
  // A union of more than a few thousand entries ends up dense; starting dense skips building
  // (and then converting) a large sparse map.
  const bytes = picked.reduce((n, r) => n + r.visitors.length, 0)
  const union = bytes > 4096 ? HyperLogLog.dense() : new HyperLogLog()
  union.mergeAllBytes(picked.map((r) => r.visitors))
  return union
}
