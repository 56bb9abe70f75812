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

/** Drives `url` from a worker thread for a fixed time with a fixed number of connections. */
export function load(url: string, options: LoadOptions = {}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: {
        url,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        body: options.body,
        connections: options.connections ?? 16,
        durationMs: options.durationMs ?? 3000,
        warmupMs: options.warmupMs ?? 500,
      },
    })
    worker.once('message', resolve)
    worker.once('error', reject)
  })
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/**
 * Throughput of `url` as a ratio of a bare node:http server answering the same bytes (see
 * ratioAgainstSameBytes), printed under `name`, with PASS or BELOW when a target is given.
 */
export async function ratioAgainstBaseline(name: string, url: string, options: Parameters<typeof ratioAgainstSameBytes>[1] & { target?: number } = {}) {
  const r = await ratioAgainstSameBytes(url, options)
  const verdict = options.target === undefined ? '' : ` ${r.ratio >= options.target ? 'PASS' : 'BELOW'} (≥ ${options.target})`
  const rounds = `medians of ${r.rounds.app.map(Math.round).join('/')} and ${r.rounds.baseline.map(Math.round).join('/')}`
  report(name, `${r.ratio.toFixed(2)} of baseline${verdict}`, `(app ${Math.round(r.app)} req/s, bare node:http ${Math.round(r.baseline)} req/s, ${rounds}, ${r.sample.body.length} B)`)
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

/**
 * Throughput of `url` against a bare node:http server sending the very bytes `url` sends for
 * the same request headers: same status, same headers (Content-Encoding and Content-Length
 * included, so the same framing), same encoded body, same keep-alive timeout, driven by the
 * same load settings in alternating rounds. Prints nothing; the caller states its target.
 */
export async function ratioAgainstSameBytes(url: string, options: LoadOptions & { rounds?: number; keepAliveTimeout?: number } = {}) {
  const sample = await captureRaw(url, options)
  if (sample.status >= 400) throw new Error(`${url} answered ${sample.status}: ${sample.body.toString().slice(0, 200)}`)
  const server = createServer((_req, res) => {
    res.writeHead(sample.status, sample.headers)
    res.end(sample.body)
  })
  server.keepAliveTimeout = options.keepAliveTimeout ?? 5000
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const baselineUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  const app: number[] = []
  const base: number[] = []
  try {
    const same = await captureRaw(baselineUrl, options)
    if (!same.body.equals(sample.body) || JSON.stringify(same.headers) !== JSON.stringify(sample.headers)) throw new Error('the baseline does not answer the same bytes')
    for (let i = 0; i < (options.rounds ?? 3); i++) {
      const b = await load(baselineUrl, options)
      const a = await load(url, options)
      const bad = Object.entries(a.statuses).filter(([s]) => s !== String(sample.status))
      if (a.errors || bad.length) throw new Error(`${url}: ${a.errors} errors, statuses ${JSON.stringify(a.statuses)}`)
      base.push(b.rps)
      app.push(a.rps)
    }
  } finally {
    await new Promise<void>((r) => server.close(() => r()))
  }
  return { ratio: median(app) / median(base), app: median(app), baseline: median(base), rounds: { app, baseline: base }, sample }
}
