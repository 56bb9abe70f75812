import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { report } from './lib.ts'

const START_TARGET_MS = 2000
const RSS_TARGET_MB = 120
const IDLE_MS = 5000

// What `npm start` execs once dist/ is built (package.json), without npm in between.
const SERVICE = ['--max-semi-space-size=2', 'dist/main.js']
// The baseline: a bare node:http server, started and asked the same way.
const BARE = ['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')`]

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024

/** Spawns `args` and times it until `path` answers 200 on its port; then its RSS after a quiet while. */
async function startAndIdle(args: string[], path: string, env: Record<string, string>) {
  const port = await freePort()
  const started = performance.now()
  const child: ChildProcess = spawn(process.execPath, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: 'ignore' })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode} before answering`)
      const ok = await fetch(`http://127.0.0.1:${port}${path}`).then(
        (r) => r.status === 200,
        () => false,
      )
      if (ok) break
      await new Promise((r) => setTimeout(r, 10))
    }
    const ms = performance.now() - started
    await new Promise((r) => setTimeout(r, IDLE_MS))
    return { ms, rss: rssMb(child.pid!) }
  } finally {
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
  }
}

/**
 * `npm start`'s server from spawn to its first healthy answer, and its RSS after five idle
 * seconds, on the embedded SQLite: a first start (migrations, the owner and its token) and a
 * second one, each against a bare node:http server started the same way.
 */
export async function benchStart() {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' })
  const dataDir = mkdtempSync(join(tmpdir(), 'slotline-bench-start-'))
  try {
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' }
    const bare = await startAndIdle(BARE, '/', {})
    for (const which of ['first start', 'second start']) {
      const svc = await startAndIdle(SERVICE, '/-/healthz', env)
      const verdict = (ok: boolean) => (ok ? 'PASS' : 'BELOW')
      report(
        `start to healthy (${which})`,
        `${(svc.ms / bare.ms).toFixed(1)}× baseline`,
        `(${Math.round(svc.ms)} ms, bare node:http ${Math.round(bare.ms)} ms; target < ${START_TARGET_MS} ms: ${verdict(svc.ms < START_TARGET_MS)})`,
      )
      report(
        `idle RSS (${which})`,
        `${(svc.rss / bare.rss).toFixed(1)}× baseline`,
        `(${svc.rss.toFixed(0)} MB, bare node:http ${bare.rss.toFixed(0)} MB; target < ${RSS_TARGET_MB} MB: ${verdict(svc.rss < RSS_TARGET_MB)})`,
      )
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
