import { sql } from 'kysely'
import { BREAKDOWN_DIMENSIONS } from './analytics.ts'
import type { Db } from './db.ts'
import type { PopulationPlan, Timings } from './population-load.ts'
import { bucketOf, mix, series, sideBySide, workTable } from './population-sql.ts'

/**
 * The analytics of a generated population, every rollup the service keeps: page days and
 * months, block clicks, social clicks and the four breakdowns, per page and per account. One
 * work table of visits (page, day, views, clicks) is made first; every rollup is one INSERT …
 * SELECT from it, so the rollups agree with each other as the intake's would.
 */

export const POPULATION_ROLLUPS = [
  'analytics_daily',
  'analytics_monthly',
  'analytics_slot_daily',
  'analytics_slot_monthly',
  'analytics_social_daily',
  'analytics_breakdown_daily',
  'analytics_breakdown_monthly',
  'analytics_account_breakdown_daily',
  'analytics_account_breakdown_monthly',
]

// Values each breakdown draws from, most common first; a page has a main value per dimension
// (its audience's country, its usual source) and on busier days a second one.
const VALUES: Record<(typeof BREAKDOWN_DIMENSIONS)[number], string[]> = {
  source: ['direct', 'instagram.com', 'tiktok.com', 'google.com', 'facebook.com', 'x.com', 'linkedin.com', 'youtube.com', 'newsletter'],
  country: 'US GB DE FR IN BR CA AU ES IT NL MX JP KR SE PL TR ID PH NG'.split(' '),
  device: ['mobile', 'desktop', 'tablet'],
  browser: ['Safari', 'Chrome', 'instagram.com app', 'tiktok.com app', 'Firefox', 'Samsung Internet', 'Edge'],
}

async function timed(timings: Timings, step: string, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now()
  await run()
  timings[step] = Math.round(performance.now() - started)
}

async function createValues(db: Db): Promise<void> {
  await sql.raw('DROP TABLE IF EXISTS population_values').execute(db)
  await sql
    .raw(
      `${workTable(db, 'population_values')} (dim integer NOT NULL, n integer NOT NULL, pick integer NOT NULL, dimension text NOT NULL, value text NOT NULL)`,
    )
    .execute(db)
  for (const [dim, dimension] of BREAKDOWN_DIMENSIONS.entries()) {
    const values = VALUES[dimension]
    for (const [pick, value] of values.entries()) {
      await sql`INSERT INTO population_values (dim, n, pick, dimension, value) VALUES (${dim + 1}, ${values.length}, ${pick}, ${dimension}, ${value})`.execute(
        db,
      )
    }
  }
}

/**
 * The visits: the page of popularity rank r expects top / r views a day, shaped by the weekday;
 * a page expecting less than one has a day with a view with that probability. About 3 % of
 * views click, the fraction below one click landing as a click with that probability.
 */
async function fillVisits(db: Db, plan: PopulationPlan, firstPage: number): Promise<void> {
  const rank = `(((CAST(p.id - ${firstPage} AS bigint) * ${plan.rankStride}) % ${plan.pages}) + 1)`
  const expected = `(${plan.topViews}.0 / ${rank} * d.weight)`
  const chance = `${mix('CAST(p.id AS bigint) * 131 + d.idx * 1000003')} % 1000000`
  await sql.raw('DROP TABLE IF EXISTS population_visits').execute(db)
  await sql
    .raw(`${workTable(db, 'population_visits')} AS
      SELECT v.profile_id AS profile_id, v.user_id AS user_id, v.day AS day, v.idx AS idx, v.views AS views,
        CAST(v.views * 3 / 100 + CASE WHEN (v.chance % 100) < v.views * 3 % 100 THEN 1 ELSE 0 END AS integer) AS clicks
      FROM (SELECT p.id AS profile_id, p.user_id AS user_id, d.day AS day, d.idx AS idx, ${chance} AS chance,
              CAST(CASE WHEN ${expected} < 1 THEN 1 ELSE round(${expected}) END AS integer) AS views
            FROM profiles p, population_days d
            WHERE p.id >= ${firstPage} AND (${expected} >= 1 OR ${chance} < ${expected} * 1000000)) v`)
    .execute(db)
}

async function fillPageDays(db: Db, plan: PopulationPlan): Promise<void> {
  await sql
    .raw(`INSERT INTO analytics_daily (profile_id, day, views, clicks, visitors, uniques)
      SELECT v.profile_id, v.day, v.views, v.clicks, s.sketch, s.uniques
      FROM population_visits v JOIN population_sketches s ON s.bucket = ${bucketOf(plan, '(v.views * 4 / 5)')}`)
    .execute(db)
  await sql
    .raw(`INSERT INTO analytics_monthly (profile_id, month, visitors)
      SELECT m.profile_id, m.month, s.sketch
      FROM (SELECT profile_id, substr(day, 1, 7) AS month, sum(views * 4 / 5) AS uniques FROM population_visits GROUP BY profile_id, substr(day, 1, 7)) m
      JOIN population_sketches s ON s.bucket = ${bucketOf(plan, 'm.uniques')}`)
    .execute(db)
}

// A sixth of a day's clicks, the remainder rounded up on a day that changes with the page.
const SOCIAL = '((v.clicks + (v.profile_id + v.idx) % 6) / 6)'

/**
 * Clicks: a sixth on the page's social links (alternating between its two), the rest over its
 * first three blocks, (n + 2) / 3, (n + 1) / 3 and n / 3 of n, which sum to n.
 */
async function fillClicks(db: Db, plan: PopulationPlan, firstPage: number): Promise<void> {
  await sql`WITH RECURSIVE ${series(db, 'k', 3)}
    INSERT INTO analytics_slot_daily (profile_id, slot_id, day, clicks, visitors)
    SELECT x.profile_id, sl.id, x.day, x.clicks, s.sketch
    FROM (SELECT v.profile_id AS profile_id, v.day AS day, k.g - 1 AS position, (v.clicks - ${sql.raw(SOCIAL)} + 3 - k.g) / 3 AS clicks
          FROM population_visits v, k WHERE v.clicks > 0) x
    JOIN slots sl ON sl.profile_id = x.profile_id AND sl.position = x.position
    JOIN population_sketches s ON s.bucket = ${sql.raw(bucketOf(plan, 'x.clicks'))}
    WHERE x.clicks > 0`.execute(db)
  await sql
    .raw(`INSERT INTO analytics_slot_monthly (profile_id, slot_id, month, visitors)
      SELECT m.profile_id, m.slot_id, m.month, s.sketch
      FROM (SELECT profile_id, slot_id, substr(day, 1, 7) AS month, sum(clicks) AS clicks FROM analytics_slot_daily
            WHERE profile_id >= ${firstPage} GROUP BY profile_id, slot_id, substr(day, 1, 7)) m
      JOIN population_sketches s ON s.bucket = ${bucketOf(plan, 'm.clicks')}`)
    .execute(db)
  await sql
    .raw(`INSERT INTO analytics_social_daily (profile_id, social_index, day, clicks)
      SELECT v.profile_id, v.idx % 2, v.day, ${SOCIAL} FROM population_visits v WHERE ${SOCIAL} > 0`)
    .execute(db)
}

/**
 * Breakdowns: per dimension the page's main value takes all views and clicks but a third, a
 * second value (changing by the day) that third when it is at least one; values near the top
 * of each list are the likelier main ones. The rows of every page, day, dimension and value,
 * with the page's owner; an account's are the sums of its pages'.
 */
function breakdownRows(db: Db) {
  const m = mix('CAST(v.profile_id AS bigint) * 31 + d.dim')
  // The product of two uniform picks over n, over n, leans towards the first values.
  const main = `((${m} % d.n) * ((${m} / d.n) % d.n) / d.n)`
  const pick = `CASE WHEN x.part = 1 THEN x.main ELSE (x.main + 1 + x.idx % (x.n - 1)) % x.n END`
  return {
    parts: series(db, 'part', 2),
    rows: sql.raw(`(SELECT x.profile_id AS profile_id, x.user_id AS user_id, x.day AS day, val.dimension AS dimension, val.value AS value,
        x.views AS views, x.clicks AS clicks
      FROM (SELECT v.profile_id AS profile_id, v.user_id AS user_id, v.day AS day, v.idx AS idx, d.dim AS dim, d.n AS n, part.g AS part,
              ${main} AS main,
              CASE WHEN part.g = 1 THEN v.views - v.views / 3 ELSE v.views / 3 END AS views,
              CASE WHEN part.g = 1 THEN v.clicks - v.clicks / 3 ELSE v.clicks / 3 END AS clicks
            FROM population_visits v, (SELECT DISTINCT dim, n FROM population_values) d, part) x
      JOIN population_values val ON val.dim = x.dim AND val.pick = ${pick}
      WHERE x.views > 0 OR x.clicks > 0) b`),
  }
}

async function fillPageBreakdowns(db: Db, firstPage: number): Promise<void> {
  const { parts, rows } = breakdownRows(db)
  await sql`WITH RECURSIVE ${parts}
    INSERT INTO analytics_breakdown_daily (profile_id, day, dimension, value, views, clicks)
    SELECT b.profile_id, b.day, b.dimension, b.value, b.views, b.clicks FROM ${rows}`.execute(db)
  await sql
    .raw(`INSERT INTO analytics_breakdown_monthly (profile_id, month, dimension, value, views, clicks)
      SELECT profile_id, substr(day, 1, 7), dimension, value, sum(views), sum(clicks) FROM analytics_breakdown_daily
      WHERE profile_id >= ${firstPage} GROUP BY profile_id, substr(day, 1, 7), dimension, value`)
    .execute(db)
}

async function fillAccountBreakdowns(db: Db, firstPage: number): Promise<void> {
  const { parts, rows } = breakdownRows(db)
  await sql`WITH RECURSIVE ${parts}
    INSERT INTO analytics_account_breakdown_daily (user_id, day, dimension, value, views, clicks)
    SELECT b.user_id, b.day, b.dimension, b.value, sum(b.views), sum(b.clicks) FROM ${rows}
    GROUP BY b.user_id, b.day, b.dimension, b.value`.execute(db)
  await sql
    .raw(`INSERT INTO analytics_account_breakdown_monthly (user_id, month, dimension, value, views, clicks)
      SELECT user_id, substr(day, 1, 7), dimension, value, sum(views), sum(clicks) FROM analytics_account_breakdown_daily
      WHERE user_id >= (SELECT user_id FROM profiles WHERE id = ${firstPage}) GROUP BY user_id, substr(day, 1, 7), dimension, value`)
    .execute(db)
}

/** Fills every rollup for the generated pages from `firstPage` on; their blocks must exist. */
export async function fillAnalytics(db: Db, plan: PopulationPlan, firstPage: number, timings: Timings): Promise<void> {
  await createValues(db)
  await timed(timings, 'visits', () => fillVisits(db, plan, firstPage))
  // Every rollup reads the visits alone, so the three chains run side by side.
  await sideBySide(db, [
    (conn) => timed(timings, 'page breakdowns', () => fillPageBreakdowns(conn, firstPage)),
    (conn) => timed(timings, 'account breakdowns', () => fillAccountBreakdowns(conn, firstPage)),
    async (conn) => {
      await timed(timings, 'page days and months', () => fillPageDays(conn, plan))
      await timed(timings, 'block and social clicks', () => fillClicks(conn, plan, firstPage))
    },
  ])
  for (const t of ['population_values', 'population_visits']) await sql.raw(`DROP TABLE ${t}`).execute(db)
}
