import type { MetricValueWithName, Registry } from 'prom-client'

/** One series of the request histogram: a method, route pattern and status. */
export interface RequestSeries {
  readonly labels: Readonly<{ method: string; route: string; status: string }>
  /** Requests observed so far (the requests counter reads it at each scrape). */
  count: number
  observe(seconds: number): void
}

/**
 * Request latency by method, route and status, for prom-client's registry. prom-client checks
 * and hashes the labels of every observation, which cost every request more than the rest of
 * the metrics hook; here a series is found once by its key and then observed with a few
 * additions. The scrape gives the same exposition as a prom-client Histogram.
 */
export class RequestHistogram {
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  private readonly series = new Map<string, RequestSeries & { buckets: Float64Array; sum: number }>()

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never)
  }

  /** The series of these labels, made on first use. */
  of(method: string, route: string, status: number): RequestSeries {
    const key = `${method} ${status} ${route}`
    let found = this.series.get(key)
    if (!found) {
      const bounds = this.bounds
      const entry = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        buckets: new Float64Array(bounds.length),
        observe(seconds: number) {
          entry.count++
          entry.sum += seconds
          for (let i = 0; i < bounds.length; i++) {
            if (seconds <= bounds[i]) {
              entry.buckets[i]++
              break
            }
          }
        },
      }
      found = entry
      this.series.set(key, entry)
    }
    return found
  }

  /** Every series so far. */
  all(): Iterable<RequestSeries> {
    return this.series.values()
  }

  /** prom-client's exposition: cumulative buckets, +Inf, sum and count per series. */
  async get() {
    const values: MetricValueWithName<string>[] = []
    for (const s of this.series.values()) {
      let cumulative = 0
      this.bounds.forEach((le, i) => {
        cumulative += s.buckets[i]
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...s.labels }, value: cumulative })
      })
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...s.labels }, value: s.count })
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum })
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count })
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values }
  }

  reset(): void {
    this.series.clear()
  }
}
