import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { promisify } from 'node:util'

const run = promisify(execFile)
const tsx = ['--import', 'tsx']

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
    const { stdout, stderr } = await run(process.execPath, [...tsx, 'src/cli.ts', ...args], { env: { ...process.env, ...env } })
    return { code: 0, stdout, stderr }
  } catch (err: any) {
    return { code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string }
  }
}

/** Starts src/main.ts and resolves once it listens; collects its stdout. */
export async function startService(
  env: Record<string, string>,
  waitSeconds = 30,
): Promise<{ child: ChildProcess; stdout: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [...tsx, 'src/main.ts'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (err += d))
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  const url = `http://127.0.0.1:${env.PORT}/-/healthz`
  for (let i = 0; i < waitSeconds * 10; i++) {
    if (child.exitCode !== null) throw new Error(`service exited early: ${err}`)
    try {
      if ((await fetch(url)).ok) return { child, stdout: () => out, exited }
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error(`service did not start: ${err}`)
}
