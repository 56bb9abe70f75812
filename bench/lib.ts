import { createServer, type OutgoingHttpHeaders } from 'node:http'
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

/** A bare node:http server answering every request with the same status, headers and bytes. */
export async function baselineServer(status: number, headers: OutgoingHttpHeaders, body: Buffer) {
  const server = createServer((_req, res) => {
    res.writeHead(status, headers)
    res.end(body)
  })
  server.keepAliveTimeout = 10_000
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((r) => server.close(() => r())) }
}

/** The exact answer of `url`, to serve the same bytes from the baseline. */
export async function capture(url: string, options: LoadOptions = {}) {
  const res = await fetch(url, { method: options.method ?? 'GET', headers: options.headers, body: options.body })
  const body = Buffer.from(await res.arrayBuffer())
  const headers: OutgoingHttpHeaders = {}
  for (const name of ['content-type', 'cache-control', 'etag', 'vary']) {
    const v = res.headers.get(name)
    if (v) headers[name] = v
  }
  return { status: res.status, headers, body }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/**
 * Throughput of `url` as a ratio of a bare node:http server answering the same bytes, measured
 * in alternating rounds in this same run (these machines are noisy).
 */
export async function ratioAgainstBaseline(name: string, url: string, options: LoadOptions & { rounds?: number } = {}) {
  const sample = await capture(url, options)
  if (sample.status >= 400) throw new Error(`${name}: ${url} answered ${sample.status}: ${sample.body.toString().slice(0, 200)}`)
  const baseline = await baselineServer(sample.status, sample.headers, sample.body)
  const app: number[] = []
  const base: number[] = []
  try {
    for (let i = 0; i < (options.rounds ?? 3); i++) {
      const b = await load(baseline.url, options)
      const a = await load(url, options)
      const bad = Object.entries(a.statuses).filter(([s]) => Number(s) >= 400)
      if (a.errors || bad.length) throw new Error(`${name}: ${a.errors} errors, statuses ${JSON.stringify(a.statuses)}`)
      base.push(b.rps)
      app.push(a.rps)
    }
  } finally {
    await baseline.close()
  }
  const ratio = median(app) / median(base)
  report(name, `${ratio.toFixed(2)} of baseline`, `(app ${Math.round(median(app))} req/s, bare node:http ${Math.round(median(base))} req/s, ${sample.body.length} B)`)
  return { ratio, app: median(app), baseline: median(base) }
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
