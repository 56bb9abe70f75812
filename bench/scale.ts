import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { freePort, startService } from '../test/helpers/process.ts'
import { report } from './lib.ts'

// `npm run bench -- scale [--soak-minutes N]` on a population made by `population generate` in
// SCALE_DATABASE_URL, with Redis at SCALE_REDIS_URL (default redis://127.0.0.1:6379).
const SECONDS = Number(process.env.SCALE_SECONDS ?? 60)
const CLIENTS = Number(process.env.SCALE_CLIENTS ?? 24)
const HOT = 50
const COLD = 5000
const OWNERS = 300
const HOT_SHARE = 0.8
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
const quantile = (xs: number[], q: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]! : Number.NaN)
const ms = (x: number) => `${x.toFixed(1)} ms`
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length
  const mx = points.reduce((s, [x]) => s + x, 0) / n
  const my = points.reduce((s, [, y]) => s + y, 0) / n
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0)
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0)
  return sxx ? sxy / sxx : 0
}

interface Population {
  hot: Array<{ id: number; login: string }>
  cold: Array<{ id: number; login: string }>
  owners: Array<{ profileId: number; token: string }>
}

/** The most viewed pages, a random cold sample, and owners with a token each (made in the store). */
async function pick(client: pg.Client): Promise<Population> {
  const hot = await client.query(
    `SELECT p.id, p.login FROM profiles p JOIN (SELECT profile_id, sum(views) AS v FROM analytics_daily GROUP BY profile_id ORDER BY v DESC LIMIT ${HOT}) a ON a.profile_id = p.id ORDER BY a.v DESC`,
  )
  const cold = await client.query(`SELECT id, login FROM profiles TABLESAMPLE SYSTEM (5) WHERE login LIKE 'p%' LIMIT ${COLD}`)
  const { accounts } = await import('../src/auth/accounts.ts')
  const { closeContext, createContext } = await import('../src/app.ts')
  const { loadConfig } = await import('../src/config.ts')
  const { createLogger } = await import('../src/observability/logger.ts')
  const ctx = await createContext(loadConfig({ ...process.env, DATABASE_URL: process.env.SCALE_DATABASE_URL!, REDIS_URL: '' }), {
    logger: createLogger('warn', process.stderr),
  })
  const owners: Population['owners'] = []
  try {
    const rows = await client.query(`SELECT DISTINCT ON (user_id) id, user_id FROM profiles TABLESAMPLE SYSTEM (5) WHERE login LIKE 'p%' LIMIT ${OWNERS}`)
    for (const r of rows.rows)
      owners.push({ profileId: r.id, token: (await accounts.createToken(ctx.db, r.user_id, { name: `scale bench ${Date.now()}` })).token })
  } finally {
    await closeContext(ctx)
  }
  return { hot: hot.rows, cold: cold.rows, owners }
}

const metric = (text: string, name: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(name))
    .reduce((s, l) => s + Number(l.split(' ').at(-1)), 0)

async function cacheCounts(bases: string[]) {
  let hits = 0
  let misses = 0
  for (const base of bases) {
    const text = await (await fetch(`${base}/-/metrics`)).text()
    hits += metric(text, 'slotline_page_cache_hits_total')
    misses += metric(text, 'slotline_page_cache_misses_total')
  }
  return { hits, misses }
}

async function pgActiveMs(client: pg.Client): Promise<number> {
  const r = await client.query('SELECT active_time FROM pg_stat_database WHERE datname = current_database()')
  return Number(r.rows[0].active_time)
}

async function viewsToday(client: pg.Client): Promise<number> {
  const r = await client.query(`SELECT coalesce(sum(views), 0) AS n FROM analytics_daily WHERE day = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD')`)
  return Number(r.rows[0].n)
}

interface Tally {
  hot: number[]
  cold: number[]
  writes: number[]
  views: number
  clicks: number
  errors: number
  statuses: Record<string, number>
}

/** Zipf traffic for `seconds` from CLIENTS clients over both instances: views, clicks, owners' writes. */
async function drive(bases: string[], pop: Population, seconds: number, clients: number): Promise<Tally> {
  const t: Tally = { hot: [], cold: [], writes: [], views: 0, clicks: 0, errors: 0, statuses: {} }
  const hotWeights = pop.hot.map((_, i) => 1 / (i + 1))
  const hotTotal = hotWeights.reduce((a, b) => a + b, 0)
  const zipfHot = () => {
    let x = Math.random() * hotTotal
    for (let i = 0; i < hotWeights.length; i++) if ((x -= hotWeights[i]!) < 0) return pop.hot[i]!
    return pop.hot[0]!
  }
  const end = Date.now() + seconds * 1000
  const count = (status: number) => {
    t.statuses[status] = (t.statuses[status] ?? 0) + 1
    if (status >= 500 || status === 0) t.errors++
  }
  const client = async (n: number) => {
    for (let i = 0; Date.now() < end; i++) {
      const base = bases[(n + i) % bases.length]!
      const started = performance.now()
      let status = 0
      try {
        if (i % 50 === 49) {
          const o = pop.owners[Math.floor(Math.random() * pop.owners.length)]!
          const res = await fetch(`${base}/v1/profiles/${o.profileId}`, {
            method: 'PATCH',
            headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ title: `Page at ${Date.now()}` }),
          })
          await res.arrayBuffer()
          status = res.status
          t.writes.push(performance.now() - started)
        } else {
          const isHot = Math.random() < HOT_SHARE
          const page = isHot ? zipfHot() : pop.cold[Math.floor(Math.random() * pop.cold.length)]!
          const click = i % 10 === 9
          const res = await fetch(click ? `${base}/-/go/${page.id}/s0` : `${base}/${page.login}`, { headers: { 'user-agent': BROWSER }, redirect: 'manual' })
          await res.arrayBuffer()
          status = res.status
          if (click) t.clicks++
          else {
            t.views++
            ;(isHot ? t.hot : t.cold).push(performance.now() - started)
          }
        }
      } catch {}
      count(status)
    }
  }
  await Promise.all(Array.from({ length: clients }, (_, n) => client(n)))
  return t
}

/** RSS of each instance every `everyMs` until stopped. */
function sampleMemory(pids: number[], everyMs: number) {
  const started = Date.now()
  const samples: Array<{ at: number; rss: number[] }> = []
  const timer = setInterval(() => samples.push({ at: (Date.now() - started) / 60_000, rss: pids.map(rssOf) }), everyMs)
  return { samples, stop: () => clearInterval(timer) }
}

async function startInstances(url: string, redis: string, count: number) {
  const dirs: string[] = []
  const instances = []
  for (let i = 0; i < count; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'slotline-scale-'))
    dirs.push(dir)
    const port = String(await freePort())
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: url,
      REDIS_URL: redis,
      HOST: '127.0.0.1',
      PORT: port,
      RATE_LIMIT_PER_SECOND: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_ADDRESS_PER_MINUTE: '0',
    }
    instances.push({ ...(await startService(env)), base: `http://127.0.0.1:${port}` })
  }
  return {
    instances,
    cleanup: () => {
      for (const d of dirs) rmSync(d, { recursive: true, force: true })
    },
  }
}

export async function benchScale() {
  const url = process.env.SCALE_DATABASE_URL
  if (!url) throw new Error('set SCALE_DATABASE_URL to a database filled by `population generate`')
  const soakMinutes = Number(process.env.SCALE_SOAK_MINUTES ?? 10)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const pages = Number((await client.query('SELECT count(*) AS n FROM profiles')).rows[0].n)
  const pop = await pick(client)
  const { instances, cleanup } = await startInstances(url, process.env.SCALE_REDIS_URL ?? 'redis://127.0.0.1:6379', 2)
  const bases = instances.map((i) => i.base)
  try {
    await drive(bases, pop, 5, 4)
    const before = { cache: await cacheCounts(bases), pg: await pgActiveMs(client), views: await viewsToday(client) }
    const memory = sampleMemory(
      instances.map((i) => i.child.pid!),
      2000,
    )
    const started = performance.now()
    const t = await drive(bases, pop, SECONDS, CLIENTS)
    const elapsed = (performance.now() - started) / 1000
    memory.stop()
    const pgMs = (await pgActiveMs(client)) - before.pg
    const cache = await cacheCounts(bases)
    const requests = Object.values(t.statuses).reduce((a, b) => a + b, 0)
    // Intake lag: from the end of the load until every view it sent is in the daily rollups.
    const sentViews = before.views + t.views
    const lagStarted = performance.now()
    let counted = await viewsToday(client)
    while (counted < sentViews && performance.now() - lagStarted < 60_000) {
      await new Promise((r) => setTimeout(r, 250))
      counted = await viewsToday(client)
    }
    const lag = (performance.now() - lagStarted) / 1000
    const hits = cache.hits - before.cache.hits
    const misses = cache.misses - before.cache.misses
    const title = `scale, ${pages} pages, 2 instances (postgres + redis)`
    report(
      title,
      `${Math.round(requests / elapsed)} req/s`,
      `${requests} requests in ${elapsed.toFixed(0)} s from ${CLIENTS} clients; ${t.errors} errors; statuses ${JSON.stringify(t.statuses)}; load ${load()}`,
    )
    const p = (xs: number[]) => `p50 ${ms(quantile(xs, 0.5))}, p99 ${ms(quantile(xs, 0.99))}, p999 ${ms(quantile(xs, 0.999))}`
    report('  hot pages (80 % of views, 50 pages)', `${t.hot.length} views`, p(t.hot))
    report(
      `  cold pages (20 %, ${pop.cold.length} random)`,
      `${t.cold.length} views`,
      `${p(t.cold)}; cold p99 / hot p99 ${(quantile(t.cold, 0.99) / quantile(t.hot, 0.99)).toFixed(2)}`,
    )
    report(`  owners' API writes (${pop.owners.length} owners)`, `${t.writes.length} writes`, p(t.writes))
    report('  page cache hit rate', `${((100 * hits) / Math.max(1, hits + misses)).toFixed(1)} %`, `${hits} hits, ${misses} misses`)
    report('  PostgreSQL time per request', ms(pgMs / requests), `pg_stat_database.active_time ${Math.round(pgMs)} ms over ${requests} requests`)
    report('  intake lag', `${lag.toFixed(1)} s`, `views counted ${counted - before.views} of ${t.views} sent (${t.clicks} clicks sent)`)
    for (const [i] of instances.entries()) {
      const series = memory.samples.map((s) => s.rss[i]!.toFixed(0)).filter((_, k, all) => k % Math.ceil(all.length / 12) === 0)
      report(`  instance ${i + 1} RSS over the run (MB)`, series.at(-1) ?? '', series.join(' '))
    }
    if (soakMinutes > 0) await soak(bases, pop, instances, soakMinutes)
  } finally {
    for (const i of instances) i.child.kill('SIGTERM')
    await Promise.all(instances.map((i) => i.exited))
    cleanup()
    await client.end()
  }
}

/** The same traffic at a third of the clients for `minutes`: RSS slope per instance by least squares after the first fifth. */
async function soak(bases: string[], pop: Population, instances: Array<{ child: { pid?: number } }>, minutes: number) {
  const memory = sampleMemory(
    instances.map((i) => i.child.pid!),
    5000,
  )
  const t = await drive(bases, pop, minutes * 60, Math.max(2, Math.round(CLIENTS / 3)))
  memory.stop()
  const kept = memory.samples.filter((s) => s.at >= minutes / 5)
  for (const [i] of instances.entries()) {
    const mbPerMin = slope(kept.map((s) => [s.at, s.rss[i]!]))
    report(
      `soak ${minutes} min, instance ${i + 1}`,
      `${mbPerMin.toFixed(2)} MB/min ${Math.abs(mbPerMin) < 1 ? 'PASS' : 'ABOVE'} (< 1)`,
      `RSS ${kept[0]?.rss[i]?.toFixed(0)} → ${kept.at(-1)?.rss[i]?.toFixed(0)} MB; ${t.views + t.clicks + t.writes.length} requests, ${t.errors} errors; load ${load()}`,
    )
  }
}
