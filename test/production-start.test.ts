import assert from 'node:assert/strict'
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { freePort } from './helpers/process.ts'

const root = new URL('..', import.meta.url).pathname
const dirs: string[] = []
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** Runs scripts/build.mjs in `dir`; resolves with what it printed. */
function build(dir: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['scripts/build.mjs'], { cwd: dir }, (err, _out, stderr) => (err ? reject(err) : resolve(stderr))),
  )
}

/**
 * A copy of what the build reads (src/, scripts/, node_modules by link): rebuilding the project's
 * own dist/ would pull it from under the test files running beside this one, which import it.
 */
function projectCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'slotline-build-'))
  dirs.push(dir)
  for (const part of ['src', 'scripts', 'package.json']) cpSync(join(root, part), join(dir, part), { recursive: true, preserveTimestamps: true })
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

/** The processes npm started (Linux: /proc lists a task's children). */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function npmStart(env: Record<string, string>) {
  const child: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (err += d))
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`npm start exited early: ${err}`)
    try {
      if ((await fetch(`http://127.0.0.1:${env.PORT}/-/healthz`)).ok) return { child, exited, stdout: () => out }
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error(`npm start did not answer: ${err}`)
}

describe('npm start (compiled JavaScript)', () => {
  it('rebuilds dist/ only when a source changed', async () => {
    const copy = projectCopy()
    assert.match(await build(copy), /^build: compiled \d+ files/, 'a missing dist/ is built')
    assert.equal(await build(copy), '', 'a fresh build is left alone, silently')
    const touched = join(copy, 'src/kernel/limits.ts')
    const now = new Date()
    utimesSync(touched, now, now)
    assert.match(await build(copy), /^build: compiled \d+ files from src\/ to dist\/ in \d+ ms\n$/)
  })

  it('runs dist/main.js under npm, prints the first-start owner, and SIGTERM to npm drains and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'slotline-start-'))
    dirs.push(dataDir)
    const port = String(await freePort())
    const svc = await npmStart({ PORT: port, DATA_DIR: dataDir, HOST: '127.0.0.1' })
    const token = /token:\s+(slp_[0-9A-Za-z]{40})/.exec(svc.stdout())?.[1]
    assert.ok(token, svc.stdout())

    // The printed demo command works from another directory and a shell without our variables.
    const demo = /demo:\s+(.+)$/m.exec(svc.stdout())?.[1]
    assert.ok(demo, svc.stdout())
    const ran = await new Promise<{ code: number; out: string }>((resolve) =>
      execFile('sh', ['-c', demo], { cwd: '/', env: { PATH: process.env.PATH, HOME: process.env.HOME } }, (err, out, stderr) =>
        resolve({ code: err ? Number(err.code) : 0, out: out + stderr }),
      ),
    )
    assert.equal(ran.code, 0, ran.out)
    assert.match(ran.out, new RegExp(`Demo page \\d+ at http://127\\.0\\.0\\.1:${port}/demo\\.page`))
    assert.equal((await fetch(`http://127.0.0.1:${port}/demo.page`)).status, 200, 'the page is on the running server')

    // npm's only child is node running the compiled entry point: no shell, no tsx in between.
    const [server, ...others] = childrenOf(svc.child.pid!)
    assert.deepEqual(others, [])
    const argv = readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0').filter(Boolean)
    assert.equal(argv.at(-1), 'dist/main.js')
    assert.ok(!argv.some((a) => a.includes('tsx')), argv.join(' '))

    // A request in flight when the container stop arrives at npm still gets its answer.
    const base = `http://127.0.0.1:${port}`
    const body = JSON.stringify({ login: 'drained.page' })
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(`${base}/v1/profiles`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' },
      })
      req.on('response', (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.write(body.slice(0, 5))
      setTimeout(() => {
        svc.child.kill('SIGTERM')
        setTimeout(() => req.end(body.slice(5)), 300)
      }, 300)
    })
    assert.equal(await answer, 201)
    assert.equal(await svc.exited, 0)
    for (let i = 0; i < 50 && alive(server); i++) await new Promise((r) => setTimeout(r, 100))
    assert.equal(alive(server), false, 'the server process is gone too')
  })
})
