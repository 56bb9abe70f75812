// Load generator in its own thread, so the client does not share the server's event loop.
// Keeps `connections` requests in flight for `durationMs` and counts answers by status.
import { parentPort, workerData } from 'node:worker_threads'
import { Pool } from 'undici'

const { url, connections, durationMs, warmupMs, method, headers, body } = workerData
const target = new URL(url)
const pool = new Pool(target.origin, { connections, pipelining: 1 })
const path = target.pathname + target.search

let counting = false
let done = 0
let errors = 0
const statuses = {}
const latencies = []
let stop = false

async function loop() {
  while (!stop) {
    const started = performance.now()
    try {
      const res = await pool.request({ method, path, headers, body })
      await res.body.dump()
      if (counting) {
        done++
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
        if (latencies.length < 200_000) latencies.push(performance.now() - started)
      }
    } catch {
      if (counting) errors++
    }
  }
}

const loops = Array.from({ length: connections }, loop)
await new Promise((r) => setTimeout(r, warmupMs))
counting = true
const t0 = performance.now()
await new Promise((r) => setTimeout(r, durationMs))
counting = false
const elapsed = (performance.now() - t0) / 1000
stop = true
await Promise.all(loops)
await pool.close()
latencies.sort((a, b) => a - b)
const p50 = latencies.length ? latencies[Math.floor(latencies.length / 2)] : 0
parentPort.postMessage({ rps: done / elapsed, done, errors, statuses, p50 })
