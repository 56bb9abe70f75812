import type { Db } from '../store/db.ts'
import { type BreakdownDimension, type BreakdownTotal, type DayCounts, type DayRange, type SketchRow, analyticsRepository } from '../store/analytics.ts'
import type { StoredProfile } from '../store/profiles.ts'
import { socialIcon } from '../profiles/social-icons.ts'
import { blockTitle, isClickable, pageBlocksWithRecords } from './block-title.ts'
import { type Coverage, coverage, dayRangesOf, unionOf, within } from './coverage.ts'
import { HyperLogLog } from './hll.ts'
import { addDays, endOfMonth, startOfMonth, startOfWeek } from './local-day.ts'
import { type PageFacts, pageInsights } from './insights.ts'
import { type ResolvedQuery, retentionStart } from './period.ts'
import type { AccountAnalytics, BlockStats, PageAnalytics, PreviousTotals, ProfileRow, SocialStats, TimelinePoint, Totals } from './analytics-schemas.ts'

const ctr = (clicks: number, views: number) => (views > 0 ? Math.round((clicks / views) * 10_000) / 10_000 : 0)

// An estimate can overshoot by its error; there are never more visitors than visits.
const totalsOf = (views: number, clicks: number, uniques: number): Totals => ({
  views,
  uniqueVisitors: Math.min(uniques, views + clicks),
  clicks,
  ctr: ctr(clicks, views),
})

const sumOf = (rows: DayCounts[], range: DayRange) => {
  let views = 0
  let clicks = 0
  let uniques = 0
  for (const r of rows) {
    if (r.day < range.from || r.day > range.to) continue
    views += r.views
    clicks += r.clicks
    uniques += r.uniques
  }
  return { views, clicks, uniques }
}

/** The period and, when compared, the one before it, with the sketches that cover each. */
interface Plan {
  current: DayRange
  previous: DayRange | undefined
  currentCover: Coverage
  previousCover: Coverage | undefined
  /** Earliest day any part of the answer reads. */
  earliest: string
}

function planOf(q: ResolvedQuery): Plan {
  const kept = retentionStart(q.today)
  const current = { from: q.from, to: q.to }
  // Weekly buckets cut across months, so they are built from day sketches.
  const currentCover = coverage(current, q.today, kept, !(q.timeline && q.bucket === 'week'))
  const previousCover = q.previous && coverage(q.previous, q.today, kept)
  return { current, previous: q.previous, currentCover, previousCover, earliest: q.previous?.from ?? q.from }
}

/** Daily counts and the sketches a plan needs, for one or several pages. */
interface Loaded {
  counts: DayCounts[]
  sketches: SketchRow[]
}

/** Daily counts of one page, or of several summed per day. */
type CountsReader = (db: Db, ids: number[], from: string, to: string) => Promise<DayCounts[]>

async function loadPages(db: Db, ids: number[], plan: Plan, to: string, readCounts: CountsReader): Promise<Loaded> {
  const covers = [plan.currentCover, ...(plan.previousCover ? [plan.previousCover] : [])]
  const [counts, days, months] = await Promise.all([
    readCounts(db, ids, plan.earliest, to),
    analyticsRepository.readDailySketches(db, ids, dayRangesOf(...covers)),
    analyticsRepository.readMonthlySketches(db, ids, [...new Set(covers.flatMap((c) => c.months))]),
  ])
  return { counts, sketches: [...months, ...days] }
}

function bucketsOf(q: ResolvedQuery): DayRange[] {
  const out: DayRange[] = []
  for (let from = q.from; from <= q.to; ) {
    const end = q.bucket === 'week' ? addDays(startOfWeek(from), 6) : q.bucket === 'month' ? endOfMonth(startOfMonth(from)) : from
    const to = end > q.to ? q.to : end
    out.push({ from, to })
    from = addDays(to, 1)
  }
  return out
}

function timelineOf(q: ResolvedQuery, loaded: Loaded, cover: Coverage): TimelinePoint[] {
  // Counts come sorted by day, so one walk alongside the buckets sums them.
  const counts = loaded.counts.filter((r) => r.day >= q.from)
  let next = 0
  return bucketsOf(q).map((bucket) => {
    let views = 0
    let clicks = 0
    let uniques = 0
    for (; next < counts.length && counts[next]!.day <= bucket.to; next++) {
      views += counts[next]!.views
      clicks += counts[next]!.clicks
      uniques += counts[next]!.uniques
    }
    // A day's estimate is stored with it; longer buckets take the union of their sketches.
    const estimate = q.bucket === 'day' ? uniques : unionOf(loaded.sketches, within(cover, bucket)).estimate()
    return { date: bucket.from, views, uniqueVisitors: Math.min(estimate, views + clicks), clicks }
  })
}

function totalsFor(loaded: Loaded, range: DayRange, cover: Coverage): Totals {
  const { views, clicks } = sumOf(loaded.counts, range)
  return totalsOf(views, clicks, unionOf(loaded.sketches, cover).estimate())
}

function previousFor(loaded: Loaded, plan: Plan): PreviousTotals | null {
  if (!plan.previous || !plan.previousCover) return null
  return { ...plan.previous, ...totalsFor(loaded, plan.previous, plan.previousCover) }
}

const groupBy = <T, K>(items: T[], key: (t: T) => K): Map<K, T[]> => {
  const out = new Map<K, T[]>()
  for (const item of items) {
    const k = key(item)
    if (!out.has(k)) out.set(k, [])
    out.get(k)!.push(item)
  }
  return out
}

async function blocksOf(db: Db, profile: StoredProfile, q: ResolvedQuery, plan: Plan) {
  const ids = [profile.id]
  const cover = coverage(plan.current, q.today, retentionStart(q.today))
  const [{ blocks: slots, records }, totals, days, months] = await Promise.all([
    pageBlocksWithRecords(db, profile),
    analyticsRepository.slotClickTotals(db, profile.id, plan.current, plan.previous),
    analyticsRepository.readSlotDailySketches(db, ids, cover.days),
    analyticsRepository.readSlotMonthlySketches(db, ids, cover.months),
  ])
  const totalsBySlot = new Map(totals.map((t) => [t.key, t]))
  const sketchesBySlot = groupBy([...months, ...days], (s) => s.slotId)
  return slots.map((slot) => {
    const clicks = totalsBySlot.get(slot.id)?.clicks ?? 0
    const sketches = sketchesBySlot.get(slot.id)
    return {
      slotId: slot.id,
      type: slot.type,
      title: blockTitle(slot, records.get(slot.id)),
      clicks,
      uniqueClicks: sketches ? Math.min(unionOf(sketches, cover).estimate(), clicks) : 0,
      previousClicks: plan.previous ? (totalsBySlot.get(slot.id)?.previousClicks ?? 0) : null,
      clickable: isClickable(slot, records.get(slot.id)),
    }
  })
}

async function socialsOf(db: Db, profile: StoredProfile, plan: Plan): Promise<SocialStats[]> {
  const totals = new Map((await analyticsRepository.socialClickTotals(db, profile.id, plan.current, plan.previous)).map((t) => [t.key, t]))
  return [...profile.socials]
    .sort((a, b) => a.order - b.order)
    .map((social) => ({
      order: social.order,
      link: social.link,
      icon: socialIcon(social.link),
      clicks: totals.get(social.order)?.clicks ?? 0,
      previousClicks: plan.previous ? (totals.get(social.order)?.previousClicks ?? 0) : null,
    }))
}

/** How many values a breakdown lists before the rest is summed as "other". */
const TOP = 10

type BreakdownLists = Pick<PageAnalytics, 'sources' | 'countries' | 'devices' | 'browsers'>

/** The period's views and clicks by source, country, device and browser, top 10 each plus "other". */
async function breakdownsOf(read: (months: string[], days: DayRange[]) => Promise<BreakdownTotal[]>, q: ResolvedQuery, plan: Plan): Promise<BreakdownLists> {
  const cover = coverage(plan.current, q.today, retentionStart(q.today))
  const rows = await read(cover.months, cover.days)
  const top = <K extends string>(dimension: BreakdownDimension, key: K) => {
    const list = rows.filter((r) => r.dimension === dimension).sort((a, b) => b.views - a.views || b.clicks - a.clicks || (a.value < b.value ? -1 : 1))
    const head = list.slice(0, TOP).filter((r) => r.value !== 'other')
    const rest = list.filter((r) => !head.includes(r))
    const out = head.map((r) => ({ [key]: r.value, views: r.views, clicks: r.clicks }) as Record<K, string> & { views: number; clicks: number })
    if (rest.length) {
      out.push({ [key]: 'other', views: rest.reduce((n, r) => n + r.views, 0), clicks: rest.reduce((n, r) => n + r.clicks, 0) } as Record<K, string> & {
        views: number
        clicks: number
      })
    }
    return out
  }
  return { sources: top('source', 'source'), countries: top('country', 'country'), devices: top('device', 'device'), browsers: top('browser', 'browser') }
}

/** spec, Analytics: views, clicks per block and per social link, previous-period numbers, insights. */
export async function pageReport(db: Db, profile: StoredProfile, q: ResolvedQuery): Promise<PageAnalytics> {
  const plan = planOf(q)
  const [loaded, blocks, socials, breakdowns] = await Promise.all([
    loadPages(db, [profile.id], plan, q.to, analyticsRepository.readDailyCounts),
    blocksOf(db, profile, q, plan),
    socialsOf(db, profile, plan),
    breakdownsOf((months, days) => analyticsRepository.breakdownTotals(db, [profile.id], months, days), q, plan),
  ])
  const totals = totalsFor(loaded, plan.current, plan.currentCover)
  const previous = previousFor(loaded, plan)
  const viewsByDay = new Map<string, number>()
  for (const r of loaded.counts) if (r.day >= q.from) viewsByDay.set(r.day, r.views)
  const facts: PageFacts = { days: q.days, totals, previous, blocks, viewsByDay }
  return {
    profileId: profile.id,
    login: profile.login,
    period: { from: q.from, to: q.to, timezone: q.timezone, bucket: q.bucket },
    totals,
    previous,
    blocks: blocks.map(({ clickable, ...block }): BlockStats => block),
    socials,
    ...breakdowns,
    ...(q.timeline ? { timeline: timelineOf(q, loaded, plan.currentCover) } : {}),
    insights: pageInsights(facts),
  }
}

/** spec, Analytics: one row per page of the account plus totals; `profiles` are all of the user's pages. */
export async function accountReport(db: Db, userId: number, profiles: StoredProfile[], q: ResolvedQuery): Promise<AccountAnalytics> {
  const plan = planOf(q)
  const ids = profiles.map((p) => p.id)
  // The timeline and the totals need the pages' counts summed per day, the rows each page's sum.
  const [loaded, sums, breakdowns] = await Promise.all([
    loadPages(db, ids, plan, q.to, analyticsRepository.readDailyTotals),
    analyticsRepository.pageTotals(db, ids, plan.current),
    // The account's own counters: summing 100 pages' rows here is some 400,000 rows a year.
    breakdownsOf((months, days) => analyticsRepository.accountBreakdownTotals(db, userId, months, days), q, plan),
  ])
  const sumsByPage = new Map(sums.map((s) => [s.profileId, s]))
  const sketchesByPage = groupBy(loaded.sketches, (s) => s.profileId)
  // Each page's sketches are merged once; the account's union is the union of the pages' ones
  // (the same registers, so the same estimate, without merging every sketch a second time).
  const union = HyperLogLog.dense()
  const rows: ProfileRow[] = profiles.map((p) => {
    const page = unionOf(sketchesByPage.get(p.id) ?? [], plan.currentCover)
    union.merge(page)
    const sum = sumsByPage.get(p.id)
    return { profileId: p.id, login: p.login, ...totalsOf(sum?.views ?? 0, sum?.clicks ?? 0, page.estimate()) }
  })
  const { views, clicks } = sumOf(loaded.counts, plan.current)
  return {
    period: { from: q.from, to: q.to, timezone: q.timezone, bucket: q.bucket },
    totals: totalsOf(views, clicks, union.estimate()),
    previous: previousFor(loaded, plan),
    profiles: rows,
    ...breakdowns,
    ...(q.timeline ? { timeline: timelineOf(q, loaded, plan.currentCover) } : {}),
  }
}
