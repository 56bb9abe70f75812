import { makeAccount, startApp } from '../test/helpers/app.ts'
import { loadDriver, medianInterval, report } from './lib.ts'

/**
 * The same read through both faces, side by side: `tools/call get_me` on /mcp (one JSON-RPC
 * POST, as a 2025-06-18 client sends it after connecting) against `GET /v1/me`, in alternating
 * short rounds on one app so that the machine's swings favour neither. The figure is the cost
 * of an /mcp call as a multiple of the REST request (REST req/s ÷ MCP req/s); the target is 2×.
 */
export async function benchMcp(store: 'sqlite' | 'postgres') {
  const t = await startApp({}, { store })
  const TARGET = 2
  try {
    const { token } = await makeAccount(t)
    const auth = { authorization: `Bearer ${token}` }
    const rest = loadDriver({ headers: auth, connections: 8 })
    const mcp = loadDriver({
      method: 'POST',
      connections: 8,
      headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_me', arguments: {} } }),
    })
    try {
      const restUrl = `${t.url}/v1/me`
      const mcpUrl = `${t.url}/mcp`
      const round = { durationMs: 500, warmupMs: 50 }
      const checked = async (driver: typeof rest, url: string) => {
        const r = await driver.run(url, round)
        if (r.errors || Object.keys(r.statuses).some((s) => s !== '200')) throw new Error(`${url}: ${r.errors} errors, statuses ${JSON.stringify(r.statuses)}`)
        return r
      }
      // Uncounted: code compiled, connections open, the connector's first-request load done.
      await rest.run(restUrl, { durationMs: 1000, warmupMs: 0 })
      await mcp.run(mcpUrl, { durationMs: 1000, warmupMs: 0 })
      const costs: number[] = []
      const restRps: number[] = []
      const mcpRps: number[] = []
      const restP50: number[] = []
      const mcpP50: number[] = []
      for (let i = 0; i < 16; i++) {
        const [a, b] = i % 2 === 0 ? [await checked(rest, restUrl), await checked(mcp, mcpUrl)] : [undefined, await checked(mcp, mcpUrl)]
        const r = a ?? (await checked(rest, restUrl))
        restRps.push(r.rps)
        mcpRps.push(b.rps)
        restP50.push(r.p50)
        mcpP50.push(b.p50)
        costs.push(r.rps / b.rps)
      }
      const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]
      const cost = med(costs)
      const [low, high] = medianInterval(costs)
      report(`GET /v1/me (${store})`, `${Math.round(med(restRps))} req/s`, `p50 ${med(restP50).toFixed(2)} ms`)
      report(`/mcp tools/call get_me (${store})`, `${Math.round(med(mcpRps))} req/s`, `p50 ${med(mcpP50).toFixed(2)} ms`)
      report(
        `/mcp get_me ÷ GET /v1/me cost (${store})`,
        `${cost.toFixed(2)}× ${cost <= TARGET ? 'PASS' : 'ABOVE'} (≤ ${TARGET}×)`,
        `(median of ${costs.length} paired rounds, 95 % interval ${low.toFixed(2)}–${high.toFixed(2)})`,
      )
    } finally {
      await rest.close()
      await mcp.close()
    }
  } finally {
    await t.close()
  }
}
