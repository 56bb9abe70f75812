import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { promisify } from 'node:util'
// @ts-expect-error the build's own helper is plain JavaScript
import { builtIsCurrent } from '../../scripts/source-fingerprint.mjs'

const run = promisify(execFile)

/**
 * How to run src/<name>.ts: the compiled dist/ (what `npm start` runs) when `npm test` built it
 * from the sources as they are, which starts a process in a fraction of the time; the sources
 * through tsx when they have changed since.
 */
export function entryArgs(name: 'main' | 'cli'): string[] {
  return builtIsCurrent() ? [`dist/${name}.js`] : ['--import', 'tsx', `src/${name}.ts`]
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

/** Runs `npm run cli -- args` the way the README does, without npm's own start-up cost. */
export async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [...entryArgs('cli'), ...args], { env: { ...process.env, ...env } })
    return { code: 0, stdout, stderr }
  } catch (err: any) {
    return { code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string }
  }
}

/** Starts src/main.ts and resolves once it listens; collects its stdout. */
export async function startService(env: Record<string, string>): Promise<{ child: ChildProcess; stdout: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, entryArgs('main'), { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (err += d))
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  const url = `http://127.0.0.1:${env.PORT}/-/healthz`
  // Generous: a loaded 2-core machine can take most of a minute to load the sources.
  const deadline = Date.now() + 180_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited early: ${err}`)
    try {
      if ((await fetch(url)).ok) return { child, stdout: () => out, exited }
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error(`service did not start: ${err}`)
}
