import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './process.ts'

export interface TestCaddy {
  /** The HTTPS port Caddy listens on, on 127.0.0.1. */
  httpsPort: number
  /** The PEM of Caddy's internal root, which signs the certificates it issues on demand. */
  root(): string
  /** What Caddy logged, for a failing assertion's message. */
  log(): string
  /** Stops Caddy and starts it again on the same ports and CA, without the certificates it obtained. */
  restartWithoutCertificates(): Promise<void>
  stop(): Promise<void>
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

/**
 * Debian's Caddy (scripts/ensure-caddy.mjs) on 127.0.0.1 in front of `upstream`, issuing
 * certificates from its own internal CA on demand, for names its `ask` URL answers 200 for.
 * Its config and data live in a temporary directory (never the machine's), the admin endpoint
 * is off, no HTTP port is opened, and the root is never installed into the system's trust.
 */
export async function startCaddy(options: { upstream: string; ask: string }): Promise<TestCaddy> {
  const dir = mkdtempSync(join(tmpdir(), 'slotline-caddy-'))
  const [httpsPort, httpPort] = [await freePort(), await freePort()]
  const caddyfile = join(dir, 'Caddyfile')
  writeFileSync(
    caddyfile,
    `{
	admin off
	auto_https disable_redirects
	default_bind 127.0.0.1
	http_port ${httpPort}
	https_port ${httpsPort}
	local_certs
	skip_install_trust
	on_demand_tls {
		ask ${options.ask}
	}
}

https:// {
	tls {
		on_demand
	}
	reverse_proxy ${options.upstream}
}
`,
  )
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') }
  const rootFile = join(dir, 'data/caddy/pki/authorities/local/root.crt')
  let log = ''
  let child: ChildProcess
  let exited: Promise<void>
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const late = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(late)
  }
  const launch = async () => {
    child = spawn(process.env.SLOTLINE_CADDY ?? 'caddy', ['run', '--adapter', 'caddyfile', '--config', caddyfile], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout!.on('data', (d) => (log += d))
    child.stderr!.on('data', (d) => (log += d))
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    // Ready once the HTTPS listener accepts and the internal CA has written its root.
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) break
      if (existsSync(rootFile) && (await canConnect(httpsPort))) return
      await new Promise((r) => setTimeout(r, 50))
    }
    await halt()
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`Caddy did not start:\n${log}`)
  }
  await launch()
  return {
    httpsPort,
    root: () => readFileSync(rootFile, 'utf8'),
    log: () => log,
    async restartWithoutCertificates() {
      await halt()
      rmSync(join(dir, 'data/caddy/certificates'), { recursive: true, force: true })
      await launch()
    },
    async stop() {
      await halt()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
