import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { limits } from '../../src/kernel/limits.ts'
import { RESERVED_LOGINS } from '../../src/profiles/logins.ts'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'

/** Every path of the running app, read from Fastify's own route tree (so later routes are covered too). */
function paths(t: TestApp): string[] {
  const found: string[] = []
  const prefixes: string[] = []
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)(?:[├└]── )(\S+) \(([A-Z, ]+)\)$/.exec(line)
    if (!match) continue
    const depth = match[1].length / 4
    prefixes.length = depth
    const path = (prefixes[depth - 1] ?? '') + match[2]
    prefixes[depth] = path
    found.push(path)
  }
  return found
}

const reserved = new Set(RESERVED_LOGINS.map((l) => l.toLowerCase()))

/**
 * Known exceptions, each a real conflict waiting for a decision (BOARD 08:06): a profile with
 * one of these logins is valid by the spec's pattern, yet its address serves the site file.
 */
const KNOWN_CONFLICTS = new Set(['/favicon.ico', '/robots.txt', '/sitemap.xml'])
const loginPattern = new RegExp(limits.login.pattern)

/**
 * ARCHITECTURE, One process, four faces: no route may take a first path segment a user could
 * own as a login. Allowed: a reserved login (the dashboard's own names), a segment shorter than
 * a login (`v1`, `qr`, `-`), one with a character no login has (`.well-known`), or the public
 * page's own `/:login` parameter.
 */
describe(`route segments (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('finds the dashboard, the API and the public page', () => {
    const all = paths(t)
    for (const p of ['/login', '/settings/tokens', '/my-links', '/v1/me']) assert.ok(all.includes(p), p)
  })

  it('gives no route a first segment a user could take as a login', () => {
    // printRoutes draws /static/* as a bare `*` under the root; a true root wildcard would swallow every page.
    assert.equal(t.app.hasRoute({ method: 'GET', url: '/*' }), false, 'no wildcard at the root')
    const offending = paths(t).filter((path) => {
      const first = path.split('/')[1] ?? ''
      if (first === '' || first === '*' || first.startsWith(':login') || KNOWN_CONFLICTS.has(path)) return false
      if (first.startsWith(':') || first.startsWith('*')) return true
      const couldBeLogin = first.length >= limits.login.minLength && first.length <= limits.login.maxLength && loginPattern.test(first)
      return couldBeLogin && !reserved.has(first.toLowerCase())
    })
    assert.deepEqual(offending, [])
  })
})
