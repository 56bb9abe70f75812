import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { request } from 'node:http'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { cli, freePort, startService } from './helpers/process.ts'

const dirs: string[] = []
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'slotline-main-'))
  dirs.push(d)
  return d
}

after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('npm start on an empty store (SQLite under DATA_DIR)', () => {
  it('creates an owner, prints a working token once, and stops gracefully on SIGTERM', async () => {
    const dataDir = tempDir()
    const port = String(await freePort())
    const env = { DATA_DIR: dataDir, PORT: port, HOST: '127.0.0.1' }
    const svc = await startService(env)
    const token = /token:\s+(slp_[0-9A-Za-z]{40})/.exec(svc.stdout())?.[1]
    assert.ok(token, svc.stdout())
    const base = `http://127.0.0.1:${port}`
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal(me.status, 200)
    assert.equal(((await me.json()) as any).data.name, 'Owner')
    const discovery = await fetch(`${base}/v1/`)
    assert.equal(discovery.status, 200)
    // Every address the message names is a page: the sign-in form, the others behind it.
    const printed = [...svc.stdout().matchAll(/http:\/\/127\.0\.0\.1:\d+(\/[\w/-]*)/g)].map((m) => m[1]).filter((p) => !p.startsWith('/v1'))
    assert.deepEqual(printed, ['/login', '/my-links', '/settings/tokens', '/settings'])
    for (const path of printed) {
      const res = await fetch(`${base}${path}`, { redirect: 'manual' })
      assert.equal(res.status, path === '/login' ? 200 : 303, path)
      if (path !== '/login') assert.equal(res.headers.get('location'), `/login?next=${encodeURIComponent(path)}`)
    }
    const password = /password:\s+(\S+)/.exec(svc.stdout())![1]
    const form = await fetch(`${base}/login`)
    const cookie = form.headers.getSetCookie()[0].split(';')[0]
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]
    const signIn = await fetch(`${base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email: 'owner@slotline.local', password }).toString(),
    })
    assert.equal(signIn.status, 303)
    // The 401 of the API points at the same page.
    const unauthenticated = (await (await fetch(`${base}/v1/me`)).json()) as { message: string }
    assert.ok(unauthenticated.message.includes(`${base}/settings/tokens`), unauthenticated.message)

    // A request already in flight when SIGTERM arrives still completes: its headers and half its
    // body are sent first, the rest only after the signal.
    const body = JSON.stringify({ login: 'graceful.page' })
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

    // The second start finds the owner and prints no new token.
    const again = await startService(env)
    assert.doesNotMatch(again.stdout(), /slp_/)
    again.child.kill('SIGTERM')
    assert.equal(await again.exited, 0)
  })

  it('refuses to start on a bad variable, naming it', async () => {
    const res = await cli(['migrate'], { DATA_DIR: tempDir(), PORT: 'abc' })
    assert.notEqual(res.code, 0)
    assert.match(res.stderr, /PORT/)
  })
})

describe('cli', () => {
  it('users create, then tokens create prints the token alone on the last line', async () => {
    const env = { DATA_DIR: tempDir() }
    const created = await cli(
      ['users', 'create', '--email', 'cli@example.test', '--password', 'long enough pw', '--name', 'Cli', '--timezone', 'Europe/Berlin'],
      env,
    )
    assert.equal(created.code, 0, created.stderr)
    const issued = await cli(['tokens', 'create', '--email', 'cli@example.test', '--abilities', 'profile:read', '--name', 'ci'], env)
    assert.equal(issued.code, 0, issued.stderr)
    const lines = issued.stdout.trim().split('\n')
    assert.match(lines[lines.length - 1], /^slp_[0-9A-Za-z]{40}$/)
  })

  it('explains a bad call with a non-zero exit', async () => {
    const env = { DATA_DIR: tempDir() }
    const missing = await cli(['tokens', 'create'], env)
    assert.notEqual(missing.code, 0)
    assert.match(missing.stderr, /--email/)
    const unknownUser = await cli(['tokens', 'create', '--email', 'nobody@example.test'], env)
    assert.notEqual(unknownUser.code, 0)
    assert.match(unknownUser.stderr, /No user/)
    const badAbility = await cli(['users', 'create', '--email', 'x@example.test', '--password', 'short'], env)
    assert.match(badAbility.stderr, /password/i)
  })

  it('migrate reports an up-to-date store', async () => {
    const res = await cli(['migrate'], { DATA_DIR: tempDir() })
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /up to date|Applied/)
  })
})
