import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'

/** Answers the public page cache sent before Fastify, by method and status (see `fastPath`). */
type FastPathKey = 'GET 200' | 'GET 304' | 'HEAD 200' | 'HEAD 304'

/**
 * The Prometheus metrics of one context (a process, or one test app). Business counters live
 * here, below http/, so the domain code that sees the event (the analytics intake, the music
 * lookup) counts it; HTTP-level ones are fed by http/metrics-route.ts.
 */
export interface AppMetrics {
  registry: Registry
  httpRequests: Counter<'method' | 'route' | 'status'>
  /** Latency by method, route and status of the requests Fastify answered. */
  httpLatency: Histogram<'method' | 'route' | 'status'>
  pageViews: Counter
  clicks: Counter
  slotWrites: Counter<'method' | 'route'>
  idempotentReplays: Counter
  rateLimitRefusals: Counter<'route'>
  upstreamFailures: Counter<'provider'>
  /** Errors caught in work that runs outside any request (intake, jobs, caches): logged, counted, survived. */
  backgroundErrors: Counter<'task'>
  /**
   * Plain numbers, not prom-client calls: the cache's fast path bumps them (a few nanoseconds)
   * and the scrape turns them into counters.
   */
  pageCache: { hits: number; misses: number; fastPath: Record<FastPathKey, number> }
}

/** The route label of fast-path answers: the page route's readable pattern. */
export const PAGE_ROUTE = '/:login'

/** The metrics of one context (a process, or one test app): AppContext.metrics makes them on first use. */
export function createMetrics(): AppMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]
  const pageCache: AppMetrics['pageCache'] = { hits: 0, misses: 0, fastPath: { 'GET 200': 0, 'GET 304': 0, 'HEAD 200': 0, 'HEAD 304': 0 } }
  const reported: Record<FastPathKey, number> = { 'GET 200': 0, 'GET 304': 0, 'HEAD 200': 0, 'HEAD 304': 0 }
  countersFromNumbers(registry, pageCache)
  return {
    registry,
    pageCache,
    httpRequests: new Counter({
      name: 'slotline_http_requests_total',
      help: 'HTTP requests by method, route pattern and status (page cache hits included)',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
      collect() {
        for (const key of Object.keys(reported) as FastPathKey[]) {
          const [method, status] = key.split(' ')
          this.inc({ method, route: PAGE_ROUTE, status }, pageCache.fastPath[key] - reported[key])
          reported[key] = pageCache.fastPath[key]
        }
      },
    }),
    httpLatency: new Histogram({
      name: 'slotline_http_request_duration_seconds',
      help: 'HTTP request latency by method, route pattern and status (page cache hits answered before Fastify are not timed)',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    }),
    pageViews: new Counter({ name: 'slotline_page_views_total', help: 'Public page views counted for analytics (people, not bots or prefetches)', registers }),
    clicks: new Counter({ name: 'slotline_clicks_total', help: 'Clicks on public page links counted for analytics', registers }),
    slotWrites: new Counter({
      name: 'slotline_slot_writes_total',
      help: 'Successful slot writes (not dry runs, not replays) by method and route',
      labelNames: ['method', 'route'] as const,
      registers,
    }),
    idempotentReplays: new Counter({ name: 'slotline_idempotent_replays_total', help: 'Writes answered from a stored Idempotency-Key answer', registers }),
    rateLimitRefusals: new Counter({
      name: 'slotline_rate_limit_refusals_total',
      help: 'Requests refused with 429 by route',
      labelNames: ['route'] as const,
      registers,
    }),
    upstreamFailures: new Counter({
      name: 'slotline_upstream_failures_total',
      help: 'Failed calls to third-party upstreams by provider',
      labelNames: ['provider'] as const,
      registers,
    }),
    backgroundErrors: new Counter({
      name: 'slotline_background_errors_total',
      help: 'Errors caught in background work (analytics intake, jobs, caches) by task; the process goes on',
      labelNames: ['task'] as const,
      registers,
    }),
  }
}

/** Counters read from plain numbers at each scrape. */
function countersFromNumbers(registry: Registry, pageCache: AppMetrics['pageCache']): void {
  for (const [name, read, help] of [
    ['slotline_page_cache_hits_total', () => pageCache.hits, 'Public page requests answered from the page cache'],
    ['slotline_page_cache_misses_total', () => pageCache.misses, 'Public page requests that rendered the page'],
  ] as const) {
    let reported = 0
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.inc(read() - reported)
        reported = read()
      },
    })
  }
}
