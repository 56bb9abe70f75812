import { randomBytes } from 'node:crypto'
import { HyperLogLog } from '../analytics/hll.ts'
import { addDays, localDay, weekday } from '../analytics/local-day.ts'
import { hashPassword } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { type PopulationPlan, populationRepository, type SlotTemplate, type SketchBucket, type Timings } from '../store/population-load.ts'
import { slotsRepository } from '../store/slots.ts'
import { slotTypes } from '../slots/registry.ts'
import { demoUseCases } from './demo-page.ts'

export interface PopulationInput {
  pages: number
  /** Days of analytics history ending today (UTC). */
  days?: number
  /** Most blocks on one page (default 40). */
  maxBlocks?: number
}

export interface PopulationResult {
  run: string
  rows: Record<string, number>
  timings: Timings
  seconds: number
  /** The template page whose blocks every page copies (one of each type, made by the demo). */
  templateLogin: string
  /** The most popular generated page and one from the cold tail, for benchmarks and tests. */
  hottestLogin: string
  coldLogin: string
}

// People open link-in-bio pages more at the weekend (Monday first).
const WEEKLY = [0.95, 1, 1, 0.97, 1.05, 1.3, 1.25]

/** Sketches standing for 1, 2, 4, … visitors: a day's or month's rollup takes the nearest below. */
function sketchBuckets(most: number): SketchBucket[] {
  const buckets: SketchBucket[] = []
  let seed = 0x9e3779b1
  const next = () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0
    return seed
  }
  for (let from = 1; from <= most; from *= 2) {
    const sketch = new HyperLogLog()
    for (let i = 0; i < from; i++) sketch.addHash(next(), next())
    buckets.push({ from, sketch: sketch.serialise(), uniques: Math.round(sketch.estimate()) })
  }
  return buckets
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))

/** A stride coprime with `n`, so rank = seq × stride mod n shuffles popularity over the pages. */
function strideFor(n: number): number {
  let stride = 1_000_003
  while (gcd(stride, n) !== 1) stride += 2
  return stride % n || 1
}

/**
 * The blocks every generated page copies: the demo page's, one of each of the ten types, as
 * the slot service stored them (so valid by each type's schema). The event and form point at
 * the owner's own copies (store/population-load.ts fills the ids).
 */
async function templates(ctx: AppContext, run: string) {
  const login = `population_template_${run}`
  const { user, profile } = await demoUseCases.createDemoPage(ctx, { email: `template.${run}@population.invalid`, login })
  const slots = (await slotsRepository.listByProfile(ctx.db, profile.id)).filter((s) => s.type in slotTypes)
  // The two record-backed types are known by the record they name, not by their type's name.
  const recordOf = (key: string) => Number(slots.map((s) => (s.data as Record<string, unknown>)[key]).find((id) => typeof id === 'number'))
  const eventOf = recordOf('eventId')
  const formOf = recordOf('formId')
  const list: SlotTemplate[] = slots.map((s) => {
    const data = { ...(s.data as Record<string, unknown>) }
    const record = 'eventId' in data ? 'eventId' : 'formId' in data ? 'formId' : undefined
    if (record) data[record] = 0
    return { type: s.type, data: JSON.stringify(data), record }
  })
  if (new Set(list.map((t) => t.type)).size !== Object.keys(slotTypes).length) throw new Error('the demo page lacks a block type')
  return { login, userId: user.id, eventOf, formOf, list }
}

/**
 * Fills the store with a population like a real service's: `pages` pages on
 * pages / 5 accounts, 1–40 blocks each (most pages few) of all ten types, and `days` days of analytics whose
 * popularity follows Zipf's law (the page of rank r gets 1 / r of the top page's views), so a
 * few pages are hot and most are cold. Bulk SQL (store/population-load.ts); a million pages on
 * PostgreSQL in minutes.
 */
async function generatePopulation(ctx: AppContext, input: PopulationInput): Promise<PopulationResult> {
  const started = performance.now()
  const run = randomBytes(3).toString('hex')
  const template = await templates(ctx, run)
  const today = localDay(new Date(), 'UTC')
  const dayCount = input.days ?? 90
  const days = Array.from({ length: dayCount }, (_, i) => {
    const day = addDays(today, i - dayCount + 1)
    return { day, weight: WEEKLY[weekday(day)]! }
  })
  // The top page: 1 % of the pages' number in views a day (10,000 at a million pages, some
  // 145,000 views a day over all pages, a sixth of them on pages seen every day).
  const topViews = Math.max(50, Math.round(input.pages * 0.01))
  const plan: PopulationPlan = {
    run,
    pages: input.pages,
    accounts: Math.max(1, Math.ceil(input.pages / 5)),
    // Nobody knows this password: generated accounts are signed into by tokens the operator makes.
    passwordHash: await hashPassword(randomBytes(24).toString('base64url')),
    createdAt: new Date().toISOString(),
    maxBlocks: input.maxBlocks ?? 40,
    templates: template.list,
    eventOf: template.eventOf,
    formOf: template.formOf,
    days,
    topViews,
    rankStride: strideFor(input.pages),
    buckets: sketchBuckets(topViews * 31),
  }
  const { timings, firstPage } = await populationRepository.load(ctx.db, plan)
  const rows = await populationRepository.countRows(ctx.db, await firstUserOf(ctx, run), firstPage)
  const loginOf = async (rank: number) =>
    (
      await ctx.db
        .selectFrom('profiles')
        .select('login')
        .where('id', '=', firstPage + seqOfRank(rank, plan.rankStride, plan.pages))
        .executeTakeFirst()
    )?.login ?? ''
  return {
    run,
    rows,
    timings,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    templateLogin: template.login,
    hottestLogin: await loginOf(1),
    coldLogin: await loginOf(input.pages),
  }
}

/** The generated page (0-based) of popularity `rank`: rank − 1 = seq × stride (mod pages). */
function seqOfRank(rank: number, stride: number, pages: number): number {
  // The inverse of stride modulo pages, by the extended Euclidean algorithm.
  let [a, b, x, y] = [BigInt(stride), BigInt(pages), 1n, 0n]
  while (b !== 0n) {
    const q = a / b
    ;[a, b, x, y] = [b, a - q * b, y, x - q * y]
  }
  const n = BigInt(pages)
  return Number((((BigInt(rank - 1) * (((x % n) + n) % n)) % n) + n) % n)
}

async function firstUserOf(ctx: AppContext, run: string): Promise<number> {
  const row = await ctx.db.selectFrom('users').select('id').where('email', '=', `p${run}.1@population.invalid`).executeTakeFirst()
  return row?.id ?? 0
}

export const populationUseCases = Object.freeze({ generatePopulation })
