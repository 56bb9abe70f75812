// npm run conformance: the official MCP conformance suite (server scenarios) against /mcp.
//
// The suite is not a project dependency: 0.1.13 (the last release that runs on Node 20) is
// installed into .tools/conformance. Its runner sends no token, so a loopback proxy in front of
// the service adds one; headers, Host and Origin included, pass through untouched so the
// DNS-rebinding scenario still tests our Origin check. PUBLIC_URL is the proxy's address: the
// origin a same-site client would send. Scenarios that need fixture tools a product does not
// have are listed, with the reason, in conformance/expected-failures.yml. The service runs with
// the default configuration, rate limits included (issue 28): no scenario may need them relaxed.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp, closeContext, createContext } from '../src/app.ts'
import { accounts } from '../src/auth/accounts.ts'
import { loadConfig } from '../src/config.ts'
import { profileService } from '../src/profiles/profile-service.ts'

const VERSION = '0.1.13'
const root = join(import.meta.dirname, '..')
const prefix = join(root, '.tools', 'conformance')
const bin = join(prefix, 'node_modules', '.bin', 'conformance')
const installed = join(prefix, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json')

function ensureSuite(): void {
  if (existsSync(installed) && JSON.parse(readFileSync(installed, 'utf8')).version === VERSION) return
  const npm = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `@modelcontextprotocol/conformance@${VERSION}`], {
    stdio: 'inherit',
  })
  if (npm.status !== 0) process.exit(npm.status ?? 1)
}

async function main(): Promise<number> {
  ensureSuite()
  const dataDir = mkdtempSync(join(tmpdir(), 'slotline-conformance-'))
  let token = ''
  let servicePort = 0
  const proxy = createServer((req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: servicePort, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${token}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r))
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`

  // The default configuration, rate limits included: what a fresh install answers a client with.
  const config = loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', PUBLIC_URL: proxyUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' })
  const ctx = await createContext(config)
  const app = await buildApp(ctx)
  await app.listen({ host: '127.0.0.1', port: 0 })
  servicePort = (app.server.address() as AddressInfo).port
  const user = await accounts.createUser(ctx.db, { email: 'conformance@slotline.local', password: 'conformance password 1', name: 'Conformance' })
  await profileService.create(ctx.db, user.id, 'conformance.page')
  token = (await accounts.createToken(ctx.db, user.id, { name: 'conformance' })).token

  // Asynchronously: the service and the proxy answer from this very process meanwhile.
  const runner = spawn(
    bin,
    ['server', '--url', `${proxyUrl}/mcp`, ...process.argv.slice(2), '--expected-failures', join(root, 'conformance', 'expected-failures.yml'), '-o', join(root, 'test-artifacts', 'conformance')],
    { stdio: 'inherit' },
  )
  const status = await new Promise<number>((resolve) => runner.on('exit', (code) => resolve(code ?? 1)))
  await app.close()
  await closeContext(ctx)
  proxy.close()
  rmSync(dataDir, { recursive: true, force: true })
  return status
}

process.exitCode = await main()
