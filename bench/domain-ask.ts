import { Agent, request } from 'node:http'
import { customDomainsRepository } from '../src/store/custom-domains.ts'
import { profilesRepository } from '../src/store/profiles.ts'
import { makeUser, startApp } from '../test/helpers/app.ts'
import { report } from './lib.ts'

/** One GET over a kept-alive connection: milliseconds until the whole answer is in. */
function timedGet(agent: Agent, url: string): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const req = request(url, { agent }, (res) => {
      res.resume()
      res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, status: res.statusCode ?? 0 }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)]
const p99 = (xs: number[]) => quantile(xs, 0.99)

/**
 * Caddy's ask, `GET /-/domains/allowed`, as the TLS proxy sends it: one request at a time on one
 * connection, 1,000 per round for an active name and 1,000 for an unknown one, against
 * /-/healthz (no store read) in rounds alternated with them. Prints the p99 latencies, the
 * target (p99 < 5 ms) and the ratio to the baseline's p99.
 */
export async function benchDomainAsk(store: 'sqlite' | 'postgres') {
  const t = await startApp({}, { store })
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    // Many domains, so the read is an index lookup among thousands, not a scan of a few rows.
    const user = await makeUser(t)
    for (let i = 0; i < 2000; i++) {
      // Straight to the store: an account's page limit does not matter to what is measured.
      const profile = await profilesRepository.insert(t.ctx.db, { userId: user.id, login: `bench_ask_${i}`, isMain: false })
      const d = await customDomainsRepository.create(t.ctx.db, { profileId: profile.id, name: `d${i}.example.test`, token: 'x' })
      if (i % 2 === 0) await customDomainsRepository.update(t.ctx.db, d.id, { state: 'active' })
    }
    const urls = {
      active: `${t.url}/-/domains/allowed?domain=d1000.example.test`,
      unknown: `${t.url}/-/domains/allowed?domain=nowhere.example.test`,
      baseline: `${t.url}/-/healthz`,
    }
    const times: Record<keyof typeof urls, number[]> = { active: [], unknown: [], baseline: [] }
    for (const url of Object.values(urls)) for (let i = 0; i < 200; i++) await timedGet(agent, url)
    for (let round = 0; round < 5; round++) {
      for (const [name, url] of Object.entries(urls) as Array<[keyof typeof urls, string]>) {
        for (let i = 0; i < 1000; i++) {
          const { ms, status } = await timedGet(agent, url)
          if (name === 'active' && status !== 200) throw new Error(`the active domain answered ${status}`)
          times[name].push(ms)
        }
      }
    }
    const base = p99(times.baseline)
    for (const name of ['active', 'unknown'] as const) {
      const p = p99(times[name])
      report(
        `GET /-/domains/allowed, ${name} (${store})`,
        `p99 ${p.toFixed(2)} ms ${p < 5 ? 'PASS' : 'BELOW'} (< 5 ms)`,
        `(${times[name].length} requests in 5 rounds; ${(p / base).toFixed(2)}× the p99 of /-/healthz, ${base.toFixed(2)} ms; p50 ${quantile(times[name], 0.5).toFixed(2)} ms against ${quantile(times.baseline, 0.5).toFixed(2)} ms)`,
      )
    }
  } finally {
    agent.destroy()
    await t.close()
  }
}
