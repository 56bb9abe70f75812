import { type Db, inTransaction } from '../store/db.ts'
import { analyticsRepository } from '../store/analytics.ts'
import type { StoredProfile } from '../store/profiles.ts'
import { isClickable, pageBlocks } from './block-title.ts'
import { addDays, localDay, weekday } from './local-day.ts'
import { RollupBatch, rebuildMonths } from './rollups.ts'

export interface SeedOptions {
  /** Days of history ending today (the owner's today), at most the retention. */
  days: number
  /** Views and clicks in all. */
  events: number
  /** How many of `events` are clicks (default about 3 % of views, a typical click rate). */
  clicks?: number
  timezone: string
  now?: Date
  /** How many distinct sources and countries visits come from (defaults 40 and 30). */
  sources?: number
  countries?: number
}

export interface SeedResult {
  from: string
  to: string
  views: number
  clicks: number
  blockClicks: number
  socialClicks: number
}

/** murmur3's finaliser: spreads consecutive integers over 32 bits. */
function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b)
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
  return (x ^ (x >>> 16)) >>> 0
}

/** A small seeded generator (mulberry32), so a seeded history is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// People open link-in-bio pages more at the weekend (Monday first).
const WEEKLY = [0.95, 1, 1, 0.97, 1.05, 1.3, 1.25]

function pick(weights: number[], r: number): number {
  let x = r * weights.reduce((a, b) => a + b, 0)
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i]!
    if (x < 0) return i
  }
  return weights.length - 1
}

const KNOWN_SOURCES = ['direct', 'instagram.com', 'tiktok.com', 'google.com', 'facebook.com', 'x.com', 'linkedin.com', 'youtube.com', 'newsletter']
const COUNTRIES =
  'US GB DE FR IN BR CA AU ES IT NL MX JP KR SE PL TR ID PH NG ZA AR CO CL PE BE CH AT DK NO FI IE PT GR CZ RO HU UA IL AE SA EG MA KE GH VN TH MY SG NZ PK BD LK NP TW HK CN RU KZ unknown'.split(
    ' ',
  )
const DEVICES = ['mobile', 'desktop', 'tablet']
const BROWSERS = ['Safari', 'Chrome', 'instagram.com app', 'tiktok.com app', 'Firefox', 'Samsung Internet', 'Edge']

/** `n` origins to draw from (Zipf-like weights): a few sources and countries bring most visits. */
function originsOf(sources: number, countries: number) {
  const names = Array.from({ length: sources }, (_, i) => KNOWN_SOURCES[i] ?? `site${i}.example`)
  const codes = Array.from({ length: countries }, (_, i) => COUNTRIES[i % COUNTRIES.length]! + (i < COUNTRIES.length ? '' : String(i)))
  const zipf = (n: number) => Array.from({ length: n }, (_, i) => 1 / (i + 1))
  return { names, codes, sourceWeights: zipf(sources), countryWeights: zipf(countries) }
}

/**
 * Fills a page's history with believable traffic for demos and benchmarks: a weekly rhythm, slow
 * growth, a few spikes, about 3 % of views clicking (a few blocks taking most clicks, some
 * social links) and many distinct visitors, some returning within a day. It writes rollups
 * directly, replacing what the page had on those days.
 */
export async function seedHistory(db: Db, profile: StoredProfile, options: SeedOptions): Promise<SeedResult> {
  const today = localDay(options.now ?? new Date(), options.timezone)
  const days = Math.max(1, Math.min(options.days, 365))
  const from = addDays(today, -(days - 1))
  const rand = random(profile.id * 7919 + days)

  const weights: number[] = []
  for (let i = 0; i < days; i++) {
    const day = addDays(from, i)
    const growth = 0.6 + (0.4 * i) / Math.max(1, days - 1)
    const spike = rand() < 0.02 ? 2.5 : 1
    weights.push(WEEKLY[weekday(day)]! * growth * spike * (0.85 + rand() * 0.3))
  }
  const totalWeight = weights.reduce((a, b) => a + b, 0)
  const ctr = 0.03
  const totalViews = options.clicks === undefined ? Math.round(options.events / (1 + ctr)) : options.events - options.clicks

  const slots = (await pageBlocks(db, profile.id)).filter(isClickable)
  // A few blocks take most of the clicks (Zipf-like), social links about a sixth.
  const blockWeights = slots.map((_, i) => 1 / (i + 1) ** 1.3)
  const socials = profile.socials.map((s) => s.order)
  const evenly = socials.map(() => 1)

  const o = originsOf(Math.max(1, options.sources ?? 40), Math.max(1, options.countries ?? 30))
  const origin = () => ({
    source: o.names[pick(o.sourceWeights, rand())]!,
    country: o.codes[pick(o.countryWeights, rand())]!,
    device: DEVICES[pick([70, 25, 5], rand())]!,
    browser: BROWSERS[pick([40, 30, 10, 8, 6, 4, 2], rand())]!,
  })
  const batch = new RollupBatch()
  const result: SeedResult = { from, to: today, views: 0, clicks: 0, blockClicks: 0, socialClicks: 0 }
  let viewsLeft = totalViews
  let clicksLeft = options.events - totalViews
  let weightLeft = totalWeight
  for (let i = 0; i < days; i++) {
    const day = addDays(from, i)
    // Shares of what is left, so the totals come out exactly at `events`.
    const share = weights[i]! / weightLeft
    weightLeft -= weights[i]!
    const views = i === days - 1 ? viewsLeft : Math.round(viewsLeft * share)
    const clicks = i === days - 1 ? clicksLeft : Math.min(clicksLeft, Math.round(clicksLeft * share))
    viewsLeft -= views
    clicksLeft -= clicks
    const visitors = Math.max(1, Math.round(views * 0.75))
    const key = (v: number) => [mix((i * 0x9e3779b1) ^ mix(v + profile.id)), mix(v ^ mix(i + 0x632be5ab))] as const
    for (let n = 0; n < views; n++) {
      const [hi, lo] = key(Math.floor(rand() * visitors))
      batch.addView(profile.id, day, hi, lo, origin())
    }
    for (let n = 0; n < clicks; n++) {
      const [hi, lo] = key(Math.floor(rand() * visitors))
      const r = rand()
      if (socials.length && (r < 1 / 6 || !slots.length)) {
        batch.addClick(profile.id, day, hi, lo, null, socials[pick(evenly, rand())]!, origin())
        result.socialClicks++
      } else if (slots.length && r < 0.98) {
        batch.addClick(profile.id, day, hi, lo, slots[pick(blockWeights, rand())]!.id, null, origin())
        result.blockClicks++
      } else {
        batch.addClick(profile.id, day, hi, lo, null, null, origin())
      }
    }
    result.views += views
    result.clicks += clicks
  }
  const months = [...new Set(Array.from({ length: days }, (_, i) => addDays(from, i).slice(0, 7)))]
  await inTransaction(db, async (trx) => {
    await analyticsRepository.deleteDays(trx, profile.id, { from, to: today })
    await batch.write(trx)
    // The batch added to month sketches that still hold the replaced days' visitors.
    await rebuildMonths(trx, profile.id, months)
    await analyticsRepository.rebuildAccountBreakdowns(trx, profile.userId, { from, to: today })
  })
  return result
}
