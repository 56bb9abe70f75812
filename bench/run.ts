// `npm run bench [-- name ...]`: every benchmark, each printing its figure against a baseline
// measured in the same run. Names filter which run (e.g. `npm run bench -- me`).
import { benchAnalyticsIntake } from './analytics-intake.ts'
import { benchAnalyticsQuery } from './analytics-query.ts'
import { benchDemoPage } from './demo-page.ts'
import { availableStores } from './lib.ts'
import { benchMe } from './me.ts'
import { benchProfileRead } from './profile-read.ts'
import { benchPublicPage } from './public-page.ts'
import { benchSlotsBatchCreate, benchSlotsReorder } from './slots.ts'
import { benchSoak } from './soak.ts'
import { benchStart } from './start.ts'
import { benchUploadMemory } from './upload-memory.ts'

type Bench = { name: string; perStore: boolean; run: (store: 'sqlite' | 'postgres') => Promise<unknown>; onlyWhenNamed?: boolean }

const benches: Bench[] = [
  { name: 'me', perStore: true, run: benchMe },
  { name: 'start', perStore: false, run: benchStart },
  { name: 'upload-memory', perStore: false, run: benchUploadMemory },
  { name: 'analytics-intake', perStore: true, run: benchAnalyticsIntake },
  { name: 'analytics-query', perStore: true, run: benchAnalyticsQuery },
  { name: 'public-page', perStore: true, run: benchPublicPage },
  { name: 'demo-page', perStore: false, run: benchDemoPage },
  { name: 'profile-read', perStore: true, run: benchProfileRead },
  { name: 'slots-batch-create', perStore: true, run: benchSlotsBatchCreate },
  { name: 'slots-reorder', perStore: true, run: benchSlotsReorder },
  // Five minutes: run it by name (`npm run bench -- soak`), SQLite only unless SOAK_STORE=postgres.
  { name: 'soak', perStore: false, run: () => benchSoak(process.env.SOAK_STORE === 'postgres' ? 'postgres' : 'sqlite'), onlyWhenNamed: true },
]

const wanted = process.argv.slice(2)
const stores = await availableStores()
for (const b of benches) {
  if (wanted.length ? !wanted.includes(b.name) : b.onlyWhenNamed) continue
  for (const store of b.perStore ? stores : (['sqlite'] as const)) await b.run(store)
}
process.exit(0)
