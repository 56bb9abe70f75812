import assert from 'node:assert/strict'
import { request } from 'node:https'
import { after, before, describe, it } from 'node:test'
import type { PeerCertificate } from 'node:tls'
import { ownerPrincipal, type Principal } from '../../src/auth/principal.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { startCaddy, type TestCaddy } from '../helpers/caddy.ts'
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts'

const TARGET = 'pages.slotline.test'
const DOMAIN = 'maralind.test'

interface TlsAnswer {
  status: number
  body: string
  cert: PeerCertificate
}

/** GET / over TLS to Caddy on 127.0.0.1, as a browser would for `name`: SNI and Host both name it; only Caddy's root is trusted. */
function httpsGet(caddy: TestCaddy, name: string): Promise<TlsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: caddy.httpsPort, servername: name, headers: { host: name }, path: '/', ca: caddy.root(), agent: false },
      (res) => {
        const cert = res.socket && 'getPeerCertificate' in res.socket ? (res.socket as import('node:tls').TLSSocket).getPeerCertificate() : undefined
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, cert: cert! }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** The handshake fails: Caddy has no certificate to offer for the name (its ask said no). */
async function refused(caddy: TestCaddy, name: string) {
  await assert.rejects(httpsGet(caddy, name), (err: NodeJS.ErrnoException) => {
    assert.match(`${err.code} ${err.message}`, /ERR_SSL|alert|ECONNRESET|socket hang up/i, `${name}: ${err.message}\n${caddy.log()}`)
    return true
  })
}

describe(`Caddy's on-demand TLS asks the service before issuing a certificate (${STORE})`, () => {
  let t: TestApp
  let dns: TestDnsServer
  let caddy: TestCaddy
  let principal: Principal
  let login: string
  before(async () => {
    dns = await startDnsServer()
    t = await startApp({ DOMAINS_DNS_SERVERS: dns.address, DOMAINS_CNAME_TARGET: TARGET, PUBLIC_URL: 'http://slotline.test' })
    const user = await makeUser(t)
    const profile = await makeProfile(t, user)
    await profilesRepository.update(t.ctx.db, profile.id, { title: 'Maralind Studio' })
    principal = ownerPrincipal(user)
    login = profile.login
    const upstream = new URL(t.url).host
    caddy = await startCaddy({ upstream, ask: `${t.url}/-/domains/allowed` })
  })
  after(async () => {
    await caddy?.stop()
    await t?.close()
    await dns?.close()
  })

  it('refuses the handshake for a name the service does not know', async () => {
    await refused(caddy, 'unknown.test')
  })

  it('refuses the handshake while the domain is connected but not yet proven', async () => {
    const connected = await useCases.domains.connect(t.ctx, principal, login, { domain: DOMAIN })
    assert.equal(connected.domain?.state, 'pending')
    dns.zone.set(DOMAIN, { CNAME: TARGET })
    assert.equal((await useCases.domains.check(t.ctx, principal, login)).domain?.state, 'pending')
    await refused(caddy, DOMAIN)
  })

  it('issues a certificate for the domain once active, and serves the page through it', async () => {
    const { domain } = await useCases.domains.get(t.ctx, principal, login)
    const txt = domain!.records.find((r) => r.type === 'TXT')!
    dns.zone.set(txt.name, { TXT: [txt.value] })
    assert.equal((await useCases.domains.check(t.ctx, principal, login)).domain?.state, 'active')
    const answer = await httpsGet(caddy, DOMAIN)
    assert.equal(answer.cert.subjectaltname, `DNS:${DOMAIN}`)
    assert.equal(answer.status, 200, caddy.log())
    assert.match(answer.body, /Maralind Studio/)
    assert.match(answer.body, /<link rel="canonical" href="https:\/\/maralind\.test\/">/)
    // Another name on the same Caddy still gets nothing.
    await refused(caddy, `www.${DOMAIN}`)
  })

  it('stops serving the page once the domain is removed, and no certificate is issued for it again', async () => {
    assert.equal((await useCases.domains.remove(t.ctx, principal, login)).domain?.state, 'removed')
    assert.equal((await fetch(`${t.url}/-/domains/allowed?domain=${DOMAIN}`)).status, 404)
    // Caddy keeps presenting a certificate it already holds until it renews it (the renewal
    // asks again), but behind it the service answers the plain not-found page, never the page.
    const held = await httpsGet(caddy, DOMAIN)
    assert.equal(held.status, 404)
    assert.doesNotMatch(held.body, /Maralind Studio/)
    // Without that certificate (a renewal due, another instance, storage cleared) the ask says no.
    await caddy.restartWithoutCertificates()
    await refused(caddy, DOMAIN)
  })
})
