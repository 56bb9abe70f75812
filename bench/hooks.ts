// What each global hook costs a request: GET /-/healthz with every global hook on, then with each
// one left out in turn, every configuration in a process of its own (see bench/run.ts for why).
import { spawnSync } from 'node:child_process'
import { closeSync, openSync, writeSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { GlobalHook } from '../src/app.ts'
import { startApp } from '../test/helpers/app.ts'
import { ratioAgainstSameBytes, report } from './lib.ts'

const HOOKS: GlobalHook[] = ['requestLog', 'metrics', 'securityHeaders', 'compression', 'requestId', 'bodyDeadlines', 'idempotency']
/** Issue #32: /-/healthz with logging and metrics on, as deployed, at least this share of bare node:http. */
const TARGET = 0.7

type Measured = { rps: number; bare: number; ratio: number; low: number; high: number }

/** One configuration, measured in this process: `off` names the hooks left out. */
async function measure(store: 'sqlite' | 'postgres', off: GlobalHook[]): Promise<Measured> {
  // Logging as deployed: every request's line at info, written to stdout (which inChild points at /dev/null).
  const t = await startApp({ LOG_LEVEL: 'info' }, { store, app: { hooks: Object.fromEntries(off.map((h) => [h, false])) } })
  try {
    // HOOKS_PAIRS: fewer pairs of rounds for a quicker, rougher look (default 20).
    const pairs = Number(process.env.HOOKS_PAIRS ?? 20)
    const r = await ratioAgainstSameBytes(`${t.url}/-/healthz`, { keepAliveTimeout: t.app.server.keepAliveTimeout, pairs })
    const sorted = [...r.pairRatios].sort((a, b) => a - b)
    return { rps: r.app, bare: r.baseline, ratio: r.ratio, low: sorted[Math.floor(sorted.length * 0.25)], high: sorted[Math.floor(sorted.length * 0.75)] }
  } finally {
    await t.close()
  }
}

/** Runs one configuration in a child process, its log on /dev/null; its figures come back on fd 3. */
function inChild(store: 'sqlite' | 'postgres', off: GlobalHook[]): Measured {
  const devNull = openSync('/dev/null', 'w')
  try {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), store, off.join(',')], {
      stdio: ['ignore', devNull, 'inherit', 'pipe'],
      encoding: 'utf8',
    })
    if (child.status !== 0) throw new Error(`hooks bench (${store}, without ${off.join(',') || 'nothing'}) failed: exit ${child.status ?? child.signal}`)
    return JSON.parse(String(child.output[3]))
  } finally {
    closeSync(devNull)
  }
}

/**
 * GET /-/healthz as deployed (every global hook on, request lines logged at info, metrics
 * counted) against bare node:http sending the same bytes, then without each hook and without
 * all of them. A hook's cost is the time per request it adds: 1/rps with it minus 1/rps without.
 */
export async function benchHooks(store: 'sqlite' | 'postgres') {
  const all = inChild(store, [])
  const line = (name: string, m: Measured, extra = '') =>
    report(
      name,
      `${m.ratio.toFixed(3)} of bare${extra}`,
      `(${Math.round(m.rps)} req/s, bare ${Math.round(m.bare)} req/s; middle half of rounds ${m.low.toFixed(2)}–${m.high.toFixed(2)})`,
    )
  line(`GET /-/healthz, every global hook (${store})`, all, ` ${all.ratio >= TARGET ? 'PASS' : 'BELOW'} (≥ ${TARGET})`)
  for (const off of [...HOOKS.map((h) => [h]), HOOKS]) {
    const m = inChild(store, off)
    // Per request, normalised to this round's bare server so that the machine's swings cancel.
    const costUs = (1 / all.ratio - 1 / m.ratio) * (1e6 / m.bare)
    line(`  without ${off.length > 1 ? 'any of them' : off[0]}`, m, `, costs ${costUs.toFixed(1)} µs/req`)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [store, off] = process.argv.slice(2) as ['sqlite' | 'postgres', string]
  const m = await measure(store, (off ? off.split(',') : []) as GlobalHook[])
  writeSync(3, JSON.stringify(m))
  process.exit(0)
}
