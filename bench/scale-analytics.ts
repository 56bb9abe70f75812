import { sql } from 'kysely'
import { addDays, localDay } from '../src/analytics/local-day.ts'
import { analyticsService } from '../src/analytics/analytics-service.ts'
import { seedHistory } from '../src/analytics/seed.ts'
import { closeContext, createContext } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { createLogger } from '../src/observability/logger.ts'
import { analyticsPartitions } from '../src/store/analytics-partitions.ts'
import { profilesRepository } from '../src/store/profiles.ts'
import { usersRepository } from '../src/store/users.ts'
import type { Db } from '../src/store/db.ts'
import { report } from './lib.ts'
import { POPULATION_ROLLUPS } from '../src/store/population-rollups.ts'

const SAMPLE = Number(process.env.SCALE_SAMPLE ?? 100)
// A busy page's year: some 55 views a day, 3 % clicking, 40 sources and 30 countries.
const EVENTS_PER_PAGE = Number(process.env.SCALE_EVENTS ?? 20_000)
const TARGET_MS = 50
const ROLLUPS = POPULATION_ROLLUPS

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)]!
const load = async () =>
  (await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')

/** Bytes of each rollup table with its indexes, partitions summed. */
async function rollupBytes(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const table of ROLLUPS) {
    const r = await sql<{ bytes: string }>`
      SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_partition_tree(to_regclass(${table})))
        THEN (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree(to_regclass(${table})))
        ELSE pg_total_relation_size(to_regclass(${table})) END AS bytes`.execute(db)
    out[table] = Number(r.rows[0]?.bytes ?? 0)
  }
  return out
}

/**
 * On a generated population (SCALE_DATABASE_URL, made by `population generate`): bytes of
 * rollups per page per day, then a year of history seeded into SAMPLE random pages and the
 * one-page analytics over 365 days (timeline, previous period, insights, every breakdown) timed
 * for each, uncached. Target: p50 under 50 ms.
 */
export async function benchScaleAnalytics() {
  const url = process.env.SCALE_DATABASE_URL
  if (!url) throw new Error('set SCALE_DATABASE_URL to a database filled by `population generate`')
  const ctx = await createContext(loadConfig({ ...process.env, DATABASE_URL: url, REDIS_URL: '' }), { logger: createLogger('warn', process.stderr) })
  try {
    const db = ctx.db
    const counts = await sql<{ pages: string; days: string; views: string; blocks: string }>`
      SELECT (SELECT count(*) FROM profiles) AS pages, 
        (SELECT count(*) FROM (SELECT day FROM analytics_daily GROUP BY day HAVING count(*) > 50) d) AS days,
        (SELECT sum(views) FROM analytics_daily) AS views, (SELECT count(*) FROM slots) AS blocks`.execute(db)
    // Days are those of the generated history (a day most pages' rows fall on), not the few sampled pages' year.
    const { pages, days, views, blocks } = Object.fromEntries(Object.entries(counts.rows[0]!).map(([k, v]) => [k, Number(v)]))
    const bytes = await rollupBytes(db)
    const total = Object.values(bytes).reduce((a, b) => a + b, 0)
    report(
      'rollup bytes per page per day',
      `${(total / pages! / days!).toFixed(1)} B`,
      `${(total / 2 ** 20).toFixed(0)} MiB over ${pages} pages × ${days} days; ${(total / views!).toFixed(0)} B per view; load ${await load()}`,
    )
    for (const [t, b] of Object.entries(bytes))
      console.log(`  ${t.padEnd(40)} ${(b / 2 ** 20).toFixed(1).padStart(8)} MiB  ${(b / pages! / days!).toFixed(2)} B/page/day`)
    const pageBytes = await sql<{ bytes: string }>`SELECT pg_total_relation_size('profiles') + pg_total_relation_size('slots') AS bytes`.execute(db)
    report(
      'pages and blocks',
      `${(Number(pageBytes.rows[0]!.bytes) / pages!).toFixed(0)} B/page`,
      `${(Number(pageBytes.rows[0]!.bytes) / 2 ** 20).toFixed(0)} MiB; ${blocks} blocks`,
    )

    const today = localDay(new Date(), 'UTC')
    await analyticsPartitions.ensureMonths(db, addDays(today, -364).slice(0, 7), today.slice(0, 7))
    // Pages seeded by an earlier run first (their year is already there), then random ones.
    const yearAgo = addDays(today, -300)
    const sample = await sql<{ id: number; seeded: boolean }>`
      (SELECT DISTINCT profile_id AS id, true AS seeded FROM analytics_daily WHERE day < ${yearAgo} LIMIT ${SAMPLE})
      UNION ALL (SELECT id, false AS seeded FROM profiles WHERE login LIKE 'p%\\_%\\_%' ORDER BY random() LIMIT ${SAMPLE})`.execute(db)
    const seeded = performance.now()
    const picked = []
    for (const { id, seeded: already } of sample.rows.slice(0, SAMPLE)) {
      const profile = (await profilesRepository.findById(db, id))!
      const owner = (await usersRepository.findById(db, profile.userId))!
      if (!already) await seedHistory(db, profile, { days: 365, events: EVENTS_PER_PAGE, timezone: owner.timezone })
      picked.push({ profile, owner })
    }
    report(`a year seeded into ${picked.length} pages`, `${((performance.now() - seeded) / 1000).toFixed(1)} s`, `${EVENTS_PER_PAGE} events each`)
    await sql.raw(`ANALYZE ${ROLLUPS.join(', ')}`).execute(db)

    const query = { dateFrom: addDays(today, -364), dateTo: today, include: 'timeline', compare: true } as never
    const times: number[] = []
    for (const round of [0, 1]) {
      for (const { profile, owner } of picked) {
        ctx.answerCache.forget([profile.id])
        const started = performance.now()
        await analyticsService.forPage(ctx, db, owner, profile, query)
        // The first round reads the pages' rows from disk into the cache, as a page's first look would.
        if (round === 1) times.push(performance.now() - started)
      }
    }
    const p50 = percentile(times, 0.5)
    report(
      `page analytics, 365 days, at ${pages} pages`,
      `p50 ${p50.toFixed(1)} ms ${p50 < TARGET_MS ? 'PASS' : 'BELOW'} (< ${TARGET_MS} ms)`,
      `${picked.length} random pages, uncached answer; p90 ${percentile(times, 0.9).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms; load ${await load()}`,
    )
  } finally {
    await closeContext(ctx)
  }
}
