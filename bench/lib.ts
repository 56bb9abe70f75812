import { createServer, type OutgoingHttpHeaders, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Worker } from 'node:worker_threads'

export interface LoadOptions {
  method?: string
  headers?: Record<string, string>
  body?: string
  connections?: number
  durationMs?: number
  warmupMs?: number
}

export interface LoadResult {
  rps: number
  done: number
  errors: number
  statuses: Record<string, number>
  p50: number
}

/** A load generator in a worker thread, kept for many rounds (load-worker.mjs). */
export interface LoadDriver {
  /** Drives `url` for `durationMs` after `warmupMs` of uncounted load. */
  run(url: string, timing?: { durationMs?: number; warmupMs?: number }): Promise<LoadResult>
  close(): Promise<void>
}

export function loadDriver(options: LoadOptions = {}): LoadDriver {
  const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
    workerData: { method: options.method ?? 'GET', headers: options.headers ?? {}, body: options.body, connections: options.connections ?? 16 },
  })
  // One round at a time: the worker answers each message with that round's result.
  let pending: { resolve: (r: LoadResult) => void; reject: (err: Error) => void } | undefined
  let failed: Error | undefined
  worker.on('message', (result: LoadResult) => pending?.resolve(result))
  worker.on('error', (err) => {
    failed = err
    pending?.reject(err)
  })
  return {
    run: (url, timing = {}) =>
      new Promise((resolve, reject) => {
        if (failed) return reject(failed)
        pending = { resolve, reject }
        worker.postMessage({ url, durationMs: timing.durationMs ?? options.durationMs ?? 3000, warmupMs: timing.warmupMs ?? options.warmupMs ?? 500 })
      }),
    close: async () => {
      const exited = new Promise((r) => worker.once('exit', r))
      worker.postMessage('close')
      await exited
    },
  }
}

/** Drives `url` from a worker thread for a fixed time with a fixed number of connections. */
export async function load(url: string, options: LoadOptions = {}): Promise<LoadResult> {
  const driver = loadDriver(options)
  try {
    return await driver.run(url)
  } finally {
    await driver.close()
  }
}

/** The q-quantile of `xs` (nearest rank); 0.5 is the median. */
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]
const median = (xs: number[]) => quantile(xs, 0.5)

/**
 * A 95 % confidence interval of the median of `xs`, assuming nothing about their distribution:
 * the k-th smallest and k-th largest values, for the largest k with P(Binomial(n, ½) < k) ≤ 2.5 %.
 */
export function medianInterval(xs: number[]): [number, number] {
  const sorted = [...xs].sort((a, b) => a - b)
  const n = sorted.length
  let below = 0 // P(Binomial(n, ½) < k)
  let term = 0.5 ** n // P(Binomial(n, ½) = k)
  let k = 0
  while (below + term <= 0.025) {
    below += term
    term = (term * (n - k)) / (k + 1)
    k++
  }
  // Too few values for any interval at this level: the full range is all there is.
  return k === 0 ? [sorted[0], sorted[n - 1]] : [sorted[k - 1], sorted[n - k]]
}

/**
 * Throughput of `url` as a ratio of a bare node:http server answering the same bytes (see
 * ratioAgainstSameBytes), printed under `name` with a 95 % confidence interval of that median
 * (how far one figure can be trusted here: README, Benchmarks), and PASS or BELOW when a target
 * is given.
 */
export async function ratioAgainstBaseline(name: string, url: string, options: RatioOptions & { target?: number } = {}) {
  const r = await ratioAgainstSameBytes(url, options)
  const verdict = options.target === undefined ? '' : ` ${r.ratio >= options.target ? 'PASS' : 'BELOW'} (≥ ${options.target})`
  const [low, high] = medianInterval(r.pairRatios)
  report(
    name,
    `${r.ratio.toFixed(3)} of baseline${verdict}`,
    `(median of ${r.pairRatios.length} paired rounds, 95 % interval ${low.toFixed(3)}–${high.toFixed(3)}; app ${Math.round(r.app)} req/s, bare node:http ${Math.round(r.baseline)} req/s; ${r.sample.body.length} B)`,
  )
  console.log(`${''.padEnd(46)} rounds: ${r.pairRatios.map((x) => x.toFixed(2)).join(' ')}`)
  return r
}

export function report(name: string, figure: string, detail = '') {
  console.log(`${name.padEnd(46)} ${figure.padEnd(22)} ${detail}`)
}

/** Stores the benchmarks run on: SQLite always, PostgreSQL when it answers on 127.0.0.1. */
export async function availableStores(): Promise<Array<'sqlite' | 'postgres'>> {
  const pg = await import('pg')
  const client = new pg.default.Client({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' })
  try {
    await client.connect()
    await client.end()
    return ['sqlite', 'postgres']
  } catch {
    return ['sqlite']
  }
}

/** Headers node:http writes on every answer by itself: the baseline gets its own. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

/**
 * The answer of `url` exactly as sent for these request headers: status, every header but the
 * per-connection ones, and the body still in its content coding (fetch would ask for and undo a
 * coding of its own choosing, so this uses node:http, which sends only the headers given).
 */
export function captureRaw(url: string, options: LoadOptions = {}): Promise<{ status: number; headers: OutgoingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('error', reject)
      res.on('end', () => {
        const headers: OutgoingHttpHeaders = {}
        for (const [name, value] of Object.entries(res.headers)) if (!PER_CONNECTION.has(name) && value !== undefined) headers[name] = value
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) })
      })
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

export interface RatioOptions extends LoadOptions {
  /** Pairs of rounds, one round on each server (default 24). */
  pairs?: number
  /** How long each counted round lasts (default 500 ms). */
  roundMs?: number
  keepAliveTimeout?: number
}

/**
 * Throughput of `url` against a bare node:http server sending the very bytes `url` sends for
 * the same request headers: same status, same headers (Content-Encoding and Content-Length
 * included, so the same framing), same encoded body, same keep-alive timeout, driven by one load
 * generator with the same settings. The machine's speed swings by half within seconds here, so
 * the two are compared in many short pairs of rounds, back to back, with the order swapped from
 * one pair to the next so that a drift favours neither; the figure is the median of the pairs'
 * ratios. Half-second rounds pair up the machine's states better than one-second ones: with
 * identical servers, medians of 30 pairs of 500 ms spread about half as far (SD 0.023) as those
 * of 15 pairs of 1 s (SD 0.05) in the same time.
 * Prints nothing; the caller states its target.
 */
export async function ratioAgainstSameBytes(url: string, options: RatioOptions = {}) {
  const sample = await captureRaw(url, options)
  if (sample.status >= 400) throw new Error(`${url} answered ${sample.status}: ${sample.body.toString().slice(0, 200)}`)
  const server = createServer((_req, res) => {
    res.writeHead(sample.status, sample.headers)
    res.end(sample.body)
  })
  server.keepAliveTimeout = options.keepAliveTimeout ?? 5000
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const baselineUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  const driver = loadDriver(options)
  const app: number[] = []
  const base: number[] = []
  try {
    const same = await captureRaw(baselineUrl, options)
    if (!same.body.equals(sample.body) || JSON.stringify(same.headers) !== JSON.stringify(sample.headers))
      throw new Error('the baseline does not answer the same bytes')
    const roundMs = options.roundMs ?? 500
    const round = { durationMs: roundMs, warmupMs: roundMs / 10 }
    const appRound = async () => {
      const a = await driver.run(url, round)
      const bad = Object.entries(a.statuses).filter(([s]) => s !== String(sample.status))
      if (a.errors || bad.length) throw new Error(`${url}: ${a.errors} errors, statuses ${JSON.stringify(a.statuses)}`)
      return a.rps
    }
    // Uncounted: both servers' code compiled and the connections open before anything counts.
    await driver.run(baselineUrl, { durationMs: 1000, warmupMs: 0 })
    await appRound()
    for (let i = 0; i < (options.pairs ?? 24); i++) {
      if (i % 2 === 0) {
        base.push((await driver.run(baselineUrl, round)).rps)
        app.push(await appRound())
      } else {
        app.push(await appRound())
        base.push((await driver.run(baselineUrl, round)).rps)
      }
    }
  } finally {
    await driver.close()
    await new Promise<void>((r) => server.close(() => r()))
  }
  const pairRatios = app.map((a, i) => a / base[i])
  return { ratio: median(pairRatios), pairRatios, app: median(app), baseline: median(base), rounds: { app, baseline: base }, sample }
}
