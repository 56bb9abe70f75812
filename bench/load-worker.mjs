// Load generator in its own thread, so the client does not share the server's event loop.
// One worker serves many rounds: each message names a URL and a duration; the worker keeps
// `connections` requests in flight for that long, answers with the counts, and keeps its
// connections and compiled code for the next round, so short alternating rounds measure the
// servers rather than the client's start-up.
import { parentPort, workerData } from 'node:worker_threads'
import { Pool } from 'undici'

const { connections, method, headers, body } = workerData
const pools = new Map()
const poolFor = (origin) => {
  let pool = pools.get(origin)
  if (!pool) pools.set(origin, (pool = new Pool(origin, { connections, pipelining: 1 })))
  return pool
}

async function round({ url, durationMs, warmupMs }) {
  const target = new URL(url)
  const pool = poolFor(target.origin)
  const path = target.pathname + target.search
  let counting = false
  let stop = false
  let done = 0
  let errors = 0
  const statuses = {}
  const latencies = []

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
  // Every request of this round is answered before the next round starts: rounds never overlap.
  await Promise.all(loops)
  latencies.sort((a, b) => a - b)
  const p50 = latencies.length ? latencies[Math.floor(latencies.length / 2)] : 0
  return { rps: done / elapsed, done, errors, statuses, p50 }
}

parentPort.on('message', async (message) => {
  if (message === 'close') {
    await Promise.all([...pools.values()].map((pool) => pool.close()))
    parentPort.close()
    return
  }
  parentPort.postMessage(await round(message))
})
