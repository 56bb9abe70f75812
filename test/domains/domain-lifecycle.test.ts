import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ownerPrincipal, type Principal } from '../../src/auth/principal.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { AppError } from '../../src/kernel/errors.ts'
import { makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts'

const TARGET = 'pages.slotline.test'
const code = (c: string, field?: string) => (err: unknown) =>
  err instanceof AppError && err.code === c && (field === undefined || Object.hasOwn(err.errors ?? {}, field))

describe(`custom domains: connecting, checking, failing, releasing (${STORE})`, () => {
  let t: TestApp
  let dns: TestDnsServer
  before(async () => {
    dns = await startDnsServer()
    t = await startApp({ DOMAINS_DNS_SERVERS: dns.address, DOMAINS_CNAME_TARGET: TARGET, DOMAINS_GRACE_HOURS: '1', PUBLIC_URL: 'http://slotline.test' })
  })
  after(async () => {
    await t.close()
    await dns.close()
  })

  async function owner(): Promise<{ principal: Principal; login: string; id: number }> {
    const user = await makeUser(t)
    const profile = await makeProfile(t, user)
    return { principal: ownerPrincipal(user), login: profile.login, id: profile.id }
  }

  const txtOf = (answer: useCases.DomainAnswerType) => answer.domain!.records.find((r) => r.type === 'TXT')!

  it('shows the TXT and CNAME records to create, and stays pending while the TXT is missing', async () => {
    const { principal, login } = await owner()
    const connected = await useCases.domains.connect(t.ctx, principal, login, { domain: 'HTTPS://Missing.Example.test/' })
    assert.equal(connected.domain?.domain, 'missing.example.test')
    assert.equal(connected.domain?.state, 'pending')
    const txt = txtOf(connected)
    assert.equal(txt.name, '_slotline.missing.example.test')
    assert.match(txt.value, /^slotline-verify=[0-9a-f]{32}$/)
    assert.deepEqual(
      connected.domain?.records.find((r) => r.type === 'CNAME'),
      { type: 'CNAME', name: 'missing.example.test', value: TARGET, purpose: 'routing' },
    )
    dns.zone.set('missing.example.test', { CNAME: TARGET })
    const checked = await useCases.domains.check(t.ctx, principal, login)
    assert.equal(checked.domain?.state, 'pending')
    assert.match(checked.domain?.problem ?? '', /No TXT record at _slotline\.missing\.example\.test/)
    assert.equal(await useCases.domains.isServed(t.ctx, 'missing.example.test'), false)
  })

  it('stays pending on a wrong TXT value, and turns active once it is right and the CNAME points here', async () => {
    const { principal, login } = await owner()
    const connected = await useCases.domains.connect(t.ctx, principal, login, { domain: 'maralind.test' })
    dns.zone.set('_slotline.maralind.test', { TXT: ['slotline-verify=not-the-token'] })
    dns.zone.set('maralind.test', { CNAME: TARGET })
    const wrong = await useCases.domains.check(t.ctx, principal, login)
    assert.equal(wrong.domain?.state, 'pending')
    assert.match(wrong.domain?.problem ?? '', /does not hold/)
    dns.zone.set('_slotline.maralind.test', { TXT: ['v=spf1 -all', txtOf(connected).value] })
    const right = await useCases.domains.check(t.ctx, principal, login)
    assert.equal(right.domain?.state, 'active')
    assert.equal(right.domain?.problem, null)
    assert.ok(right.domain?.verifiedAt)
    assert.equal(await useCases.domains.isServed(t.ctx, 'maralind.test'), true)
  })

  it('marks an active domain failing when its CNAME later points elsewhere, and releases it after the grace', async () => {
    const { principal, login } = await owner()
    const connected = await useCases.domains.connect(t.ctx, principal, login, { domain: 'moving.example.test' })
    dns.zone.set('_slotline.moving.example.test', { TXT: [txtOf(connected).value] })
    dns.zone.set('moving.example.test', { CNAME: TARGET })
    assert.equal((await useCases.domains.check(t.ctx, principal, login)).domain?.state, 'active')

    dns.zone.set('moving.example.test', { CNAME: 'elsewhere.example.test' })
    dns.zone.set('elsewhere.example.test', { A: ['192.0.2.7'] })
    const start = new Date()
    await useCases.domains.checkDue(t.ctx, new Date(start.getTime() + 3600_000))
    const failing = await useCases.domains.get(t.ctx, principal, login)
    assert.equal(failing.domain?.state, 'failing')
    assert.match(failing.domain?.problem ?? '', /points to elsewhere\.example\.test/)
    assert.ok(failing.domain?.releaseAt)
    assert.equal(await useCases.domains.isServed(t.ctx, 'moving.example.test'), false)

    // Within the grace nothing more happens; past it the domain is released.
    await useCases.domains.checkDue(t.ctx, new Date(start.getTime() + 1.5 * 3600_000))
    assert.equal((await useCases.domains.get(t.ctx, principal, login)).domain?.state, 'failing')
    await useCases.domains.checkDue(t.ctx, new Date(start.getTime() + 3 * 3600_000 + 1000))
    assert.equal((await useCases.domains.get(t.ctx, principal, login)).domain?.state, 'removed')

    // Released, the name can be connected again (by anyone who proves it).
    const other = await owner()
    const again = await useCases.domains.connect(t.ctx, other.principal, other.login, { domain: 'moving.example.test' })
    assert.equal(again.domain?.state, 'pending')
  })

  it('comes back to active when a failing domain’s records are fixed within the grace', async () => {
    const { principal, login } = await owner()
    const connected = await useCases.domains.connect(t.ctx, principal, login, { domain: 'flaky.example.test' })
    dns.zone.set('_slotline.flaky.example.test', { TXT: [txtOf(connected).value] })
    dns.zone.set('flaky.example.test', { CNAME: TARGET })
    await useCases.domains.check(t.ctx, principal, login)
    dns.zone.delete('_slotline.flaky.example.test')
    assert.equal((await useCases.domains.check(t.ctx, principal, login)).domain?.state, 'failing')
    dns.zone.set('_slotline.flaky.example.test', { TXT: [txtOf(connected).value] })
    const back = await useCases.domains.check(t.ctx, principal, login)
    assert.equal(back.domain?.state, 'active')
    assert.equal(back.domain?.releaseAt, null)
  })

  it('accepts A records on the CNAME target’s addresses for a bare domain', async () => {
    const { principal, login } = await owner()
    dns.zone.set(TARGET, { A: ['198.51.100.10'] })
    const connected = await useCases.domains.connect(t.ctx, principal, login, { domain: 'apex-example.test' })
    dns.zone.set('_slotline.apex-example.test', { TXT: [txtOf(connected).value] })
    dns.zone.set('apex-example.test', { A: ['198.51.100.99'] })
    assert.equal((await useCases.domains.check(t.ctx, principal, login)).domain?.state, 'pending')
    dns.zone.set('apex-example.test', { A: ['198.51.100.10'] })
    assert.equal((await useCases.domains.check(t.ctx, principal, login)).domain?.state, 'active')
  })

  it('refuses a name connected to another page, a second domain for one page, and the service’s own host', async () => {
    const first = await owner()
    const second = await owner()
    await useCases.domains.connect(t.ctx, first.principal, first.login, { domain: 'shared.example.test' })
    // The same name again, by its page: answered as it is.
    assert.equal((await useCases.domains.connect(t.ctx, first.principal, first.login, { domain: 'shared.example.test' })).domain?.state, 'pending')
    await assert.rejects(
      useCases.domains.connect(t.ctx, second.principal, second.login, { domain: 'Shared.Example.test.' }),
      code('validation_failed', 'domain'),
    )
    await assert.rejects(useCases.domains.connect(t.ctx, first.principal, first.login, { domain: 'another.example.test' }), code('limit_reached'))
    for (const domain of ['slotline.test', 'pages.slotline.test', 'a.b.slotline.test', '127.0.0.1', 'localhost', 'nodot', 'bad_label.test', '-x.test']) {
      await assert.rejects(useCases.domains.connect(t.ctx, second.principal, second.login, { domain }), code('validation_failed', 'domain'), domain)
    }
  })

  it('removes a domain, which stops it being served, and answers not_found for a page without one', async () => {
    const { principal, login } = await owner()
    const connected = await useCases.domains.connect(t.ctx, principal, login, { domain: 'gone.example.test' })
    dns.zone.set('_slotline.gone.example.test', { TXT: [txtOf(connected).value] })
    dns.zone.set('gone.example.test', { CNAME: TARGET })
    await useCases.domains.check(t.ctx, principal, login)
    assert.equal(await useCases.domains.isServed(t.ctx, 'gone.example.test'), true)
    assert.equal((await useCases.domains.remove(t.ctx, principal, login)).domain?.state, 'removed')
    assert.equal(await useCases.domains.isServed(t.ctx, 'gone.example.test'), false)
    await assert.rejects(useCases.domains.remove(t.ctx, principal, login), code('not_found'))
    await assert.rejects(useCases.domains.check(t.ctx, principal, login), code('not_found'))
  })

  it('keeps another account’s page out of reach', async () => {
    const mine = await owner()
    const theirs = await owner()
    await assert.rejects(useCases.domains.connect(t.ctx, mine.principal, theirs.login, { domain: 'theirs.example.test' }), code('not_found'))
    await assert.rejects(useCases.domains.get(t.ctx, mine.principal, theirs.login), code('not_found'))
  })
})
