// `npm run bench [-- name ...]`: every benchmark, each printing its figure against a baseline
// measured in the same run. Names filter which run (e.g. `npm run bench -- me`).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { benchAnalyticsIntake } from './analytics-intake.ts'
import { benchAnalyticsQuery } from './analytics-query.ts'
import { benchDemoPage } from './demo-page.ts'
import { benchDomainAsk } from './domain-ask.ts'
import { benchHooks } from './hooks.ts'
import { availableStores } from './lib.ts'
import { benchMcp } from './mcp.ts'
import { benchMe } from './me.ts'
import { benchPageWeight } from './page-weight.ts'
import { benchProfileRead } from './profile-read.ts'
import { benchPublicPage } from './public-page.ts'
import { benchSlotsBatchCreate, benchSlotsReorder } from './slots.ts'
import { benchScale } from './scale.ts'
import { benchScaleAnalytics } from './scale-analytics.ts'
import { benchSoak } from './soak.ts'
import { benchStart } from './start.ts'
import { benchUploadMemory } from './upload-memory.ts'

type Bench = { name: string; perStore: boolean; run: (store: 'sqlite' | 'postgres') => Promise<unknown>; onlyWhenNamed?: boolean }

const benches: Bench[] = [
  { name: 'me', perStore: true, run: benchMe },
  { name: 'domain-ask', perStore: true, run: benchDomainAsk },
  { name: 'mcp', perStore: true, run: benchMcp },
  { name: 'start', perStore: false, run: benchStart },
  { name: 'upload-memory', perStore: false, run: benchUploadMemory },
  { name: 'analytics-intake', perStore: true, run: benchAnalyticsIntake },
  { name: 'analytics-query', perStore: true, run: benchAnalyticsQuery },
  { name: 'public-page', perStore: true, run: benchPublicPage },
  { name: 'demo-page', perStore: false, run: benchDemoPage },
  { name: 'page-weight', perStore: false, run: benchPageWeight },
  { name: 'profile-read', perStore: true, run: benchProfileRead },
  { name: 'hooks', perStore: true, run: benchHooks },
  { name: 'slots-batch-create', perStore: true, run: benchSlotsBatchCreate },
  { name: 'slots-reorder', perStore: true, run: benchSlotsReorder },
  // Five minutes: run it by name (`npm run bench -- soak`), SQLite only unless SOAK_STORE=postgres.
  { name: 'soak', perStore: false, run: () => benchSoak(process.env.SOAK_STORE === 'postgres' ? 'postgres' : 'sqlite'), onlyWhenNamed: true },
  // On a population made by `population generate` in SCALE_DATABASE_URL: run by name.
  { name: 'scale', perStore: false, run: benchScale, onlyWhenNamed: true },
  { name: 'scale-analytics', perStore: false, run: benchScaleAnalytics, onlyWhenNamed: true },
]

/**
 * Each benchmark runs on each store in a process of its own, as the service runs in production:
 * an app started after another one closed, in the same process, measured 0.66–0.73 of the bare
 * server on the public page where a fresh process measured 0.84–1.15. Nothing of the first app
 * was left running; the cause is not pinned down (V8's shared code and feedback, likely).
 */
const args = process.argv.slice(2)
// `--soak-minutes N` (scale): passed on to the benchmark's process through the environment.
const soakAt = args.indexOf('--soak-minutes')
if (soakAt >= 0) process.env.SCALE_SOAK_MINUTES = args.splice(soakAt, 2)[1]
const wanted = args
if (wanted[0] === '--one') {
  const [, onlyName, onlyStore] = wanted
  const b = benches.find((x) => x.name === onlyName)
  if (!b) throw new Error(`no benchmark named ${onlyName}`)
  await b.run(onlyStore as 'sqlite' | 'postgres')
  process.exit(0)
}

const unknown = wanted.filter((name) => !benches.some((b) => b.name === name))
if (unknown.length) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; the benchmarks are ${benches.map((b) => b.name).join(', ')}.`)
  process.exit(2)
}
const stores = await availableStores()
let failed = 0
for (const b of benches) {
  if (wanted.length ? !wanted.includes(b.name) : b.onlyWhenNamed) continue
  for (const store of b.perStore ? stores : (['sqlite'] as const)) {
    // The same Node with the same loader (tsx) and flags, on this file.
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--one', b.name, store], { stdio: 'inherit' })
    if (child.status !== 0) {
      failed++
      console.error(`${b.name} (${store}) failed: exit ${child.status ?? child.signal}`)
    }
  }
}
process.exit(failed ? 1 : 0)
