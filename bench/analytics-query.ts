import { answerCache } from '../src/analytics/answer-cache.ts'
import { addDays, localDay } from '../src/analytics/local-day.ts'
import { seedHistory } from '../src/analytics/seed.ts'
import { profilesRepository } from '../src/store/profiles.ts'
import { analyticsRepository } from '../src/store/analytics.ts'
import { coverage } from '../src/analytics/coverage.ts'
import { retentionStart } from '../src/analytics/period.ts'
import { makeAccount, makeProfile, startApp } from '../test/helpers/app.ts'
import { insertButtonSlots } from '../test/helpers/slots.ts'
import { report } from './lib.ts'

const EVENTS = 1_000_000
const RUNS = 40

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/**
 * GET /profiles/{id}/analytics over 365 days (timeline by day, previous period, insights) of a
 * page seeded with 1,000,000 events, over real HTTP. Each timed request first drops the answer
 * cache, so every one reads and merges a year of rollups and sketches. Target: p50 under 50 ms.
 */
export async function benchAnalyticsQuery(store: 'sqlite' | 'postgres') {
  const t = await startApp({}, { store })
  try {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    await insertButtonSlots(t.ctx.db, profile.id, ['Shop', 'Book a call', 'Newsletter', 'Podcast', 'Blog', 'Tip jar', 'Portfolio', 'Contact'])
    const withSocials = await profilesRepository.update(t.ctx.db, profile.id, {
      socials: ['https://instagram.com/b', 'https://tiktok.com/@b', 'https://youtube.com/@b'].map((link, order) => ({ link, order })),
    })
    const seeded = performance.now()
    // issue 31: a year of 1,000,000 events (~970,000 views, ~30,000 clicks) from 200 sources and 60 countries.
    const s = await seedHistory(t.ctx.db, withSocials, { days: 365, events: EVENTS, timezone: user.timezone, sources: 200, countries: 60 })
    report(`analytics seed 1,000,000 events (${store})`, `${((performance.now() - seeded) / 1000).toFixed(1)} s`, `${s.views} views, ${s.clicks} clicks`)

    const today = localDay(new Date(), user.timezone)
    const url = `${t.url}/v1/profiles/${profile.id}/analytics?dateFrom=${addDays(today, -364)}&dateTo=${today}&include=timeline&compare=true`
    const headers = { authorization: `Bearer ${token}` }
    const timed = async (cold: boolean) => {
      if (cold) answerCache(t.ctx).forget([profile.id])
      const started = performance.now()
      const res = await fetch(url, { headers })
      const body = (await res.json()) as any
      const ms = performance.now() - started
      const listed = body.data?.sources?.length === 11 && body.data.countries?.length === 11
      if (res.status !== 200 || body.data.totals.views !== s.views || !listed) throw new Error(`analytics answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`)
      return ms
    }
    for (let i = 0; i < 3; i++) await timed(true)
    const cold: number[] = []
    for (let i = 0; i < RUNS; i++) cold.push(await timed(true))
    const warm: number[] = []
    for (let i = 0; i < RUNS; i++) warm.push(await timed(false))
    report(
      `page analytics, 365 days of 1M events (${store})`,
      `p50 ${median(cold).toFixed(1)} ms`,
      `uncached, timeline + previous + insights + sources/countries/devices/browsers (200 sources, 60 countries); p90 ${[...cold].sort((a, b) => a - b)[Math.floor(RUNS * 0.9)]!.toFixed(1)} ms; cached p50 ${median(warm).toFixed(1)} ms`,
    )
    // issue 31: the breakdown query alone (sources, countries, devices, browsers of the year), to
    // tell its share of the figure above from the rest.
    const cover = coverage({ from: addDays(today, -364), to: today }, today, retentionStart(today))
    const alone: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now()
      await analyticsRepository.breakdownTotals(t.ctx.db, [profile.id], cover.months, cover.days)
      alone.push(performance.now() - started)
    }
    report(`breakdowns alone, 365 days, 200 sources, 60 countries (${store})`, `p50 ${median(alone).toFixed(1)} ms`, `${cover.months.length} months + ${cover.days.length} day range(s)`)
    return { p50: median(cold) }
  } finally {
    await t.close()
  }
}
