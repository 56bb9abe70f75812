import assert from 'node:assert/strict'
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { freePort } from './helpers/process.ts'

// The compiled service as `npm start` runs it (its node flags read from package.json), on a fresh
// SQLite store: how much memory it holds at rest, and what it has loaded. Nothing is forced: no GC call, no request but the health check.
const root = new URL('..', import.meta.url).pathname
const RSS_LIMIT_MB = 120
const START_FLAGS = /exec node (.*) dist\/main\.js/.exec(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start)![1].split(' ')

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('a fresh start at rest (compiled service, SQLite)', () => {
  let child: ChildProcess
  let dataDir: string
  let rest = 0

  before(async () => {
    await new Promise<void>((resolve, reject) => execFile(process.execPath, ['scripts/build.mjs'], { cwd: root }, (err) => (err ? reject(err) : resolve())))
    dataDir = mkdtempSync(join(tmpdir(), 'slotline-idle-'))
    const port = await freePort()
    child = spawn(process.execPath, [...START_FLAGS, 'dist/main.js'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    })
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`)
      if (i > 600) throw new Error('the service did not answer /-/healthz')
      const ok = await fetch(`http://127.0.0.1:${port}/-/healthz`).then(
        (r) => r.ok,
        () => false,
      )
      if (ok) break
      await sleep(100)
    }
    // At rest: the RSS has not moved by more than 1 MB over the last 3 s (read twice a second).
    const samples: number[] = []
    for (let i = 0; i < 120; i++) {
      samples.push(rssMb(child.pid!))
      const last = samples.slice(-7)
      if (last.length === 7 && Math.max(...last) - Math.min(...last) < 1) break
      await sleep(500)
    }
    rest = samples.at(-1)!
  })
  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('has not loaded libvips: sharp loads with the first image, not at start', () => {
    const maps = readFileSync(`/proc/${child.pid}/maps`, 'utf8')
    assert.equal(maps.includes('libvips'), false)
  })

  it(`holds under ${RSS_LIMIT_MB} MB of RSS`, (t) => {
    assert.ok(rest < RSS_LIMIT_MB, `RSS at rest ${rest.toFixed(1)} MB`)
    t.diagnostic(`RSS at rest ${rest.toFixed(1)} MB`)
  })
})
