import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Histogram, Registry } from 'prom-client'
import { RequestHistogram } from '../../src/observability/request-histogram.ts'

// The lean histogram must scrape exactly as prom-client's own would, for the same observations.
describe('RequestHistogram', () => {
  it('exposes the same text as a prom-client Histogram', async () => {
    const bounds = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]
    const ours = new Registry()
    const theirs = new Registry()
    const lean = new RequestHistogram('x_seconds', 'Latency', bounds, ours)
    const reference = new Histogram({ name: 'x_seconds', help: 'Latency', labelNames: ['method', 'route', 'status'], buckets: bounds, registers: [theirs] })
    const observations: Array<[string, string, number, number]> = [
      ['GET', '/v1/me', 200, 0.0004],
      ['GET', '/v1/me', 200, 0.001],
      ['GET', '/v1/me', 200, 0.3],
      ['GET', '/v1/me', 401, 0.002],
      ['POST', '/v1/profiles/:profileKey/slots', 201, 12],
      ['GET', '/:login', 200, 0.02],
    ]
    for (const [method, route, status, seconds] of observations) {
      lean.of(method, route, status).observe(seconds)
      reference.observe({ method, route, status: String(status) }, seconds)
    }
    assert.equal(await ours.metrics(), await theirs.metrics())
    assert.equal(lean.of('GET', '/v1/me', 200).count, 3)
  })
})
