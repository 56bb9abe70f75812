import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { closeContext } from '../../src/app.ts'
import { accounts } from '../../src/auth/accounts.ts'
import { profileService } from '../../src/profiles/profile-service.ts'
import { STORE } from '../helpers/app.ts'
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts'
import { cli } from '../helpers/process.ts'
import { type SeparateStore, separateStore } from '../helpers/separate-store.ts'

const TARGET = 'pages.slotline.test'
const as = ['--email', 'domains@example.test', '--page', 'studio.page']

describe(`cli domains add / check / list / remove (${STORE})`, () => {
  let outside: SeparateStore
  let dns: TestDnsServer
  before(async () => {
    dns = await startDnsServer()
    outside = await separateStore(STORE, 'slotline-cli-domains', {
      DOMAINS_DNS_SERVERS: dns.address,
      DOMAINS_CNAME_TARGET: TARGET,
      PUBLIC_URL: 'http://slotline.test',
    })
    const ctx = await outside.open()
    const user = await accounts.createUser(ctx.db, { email: 'domains@example.test', password: 'correct horse battery', name: 'Studio' })
    await profileService.create(ctx.db, user.id, 'studio.page')
    await closeContext(ctx)
  })
  after(async () => {
    await outside.remove()
    await dns.close()
  })

  it('prints the records to create, checks them until the domain is active, lists it and removes it', async () => {
    const refused = await cli(['domains', 'add', ...as, '--domain', 'www.slotline.test'], outside.env)
    assert.equal(refused.code, 1)
    assert.match(refused.stderr, /domain/)

    const added = await cli(['domains', 'add', ...as, '--domain', 'Studio.Example.test'], outside.env)
    assert.equal(added.code, 0, added.stderr)
    assert.match(added.stdout, /^studio\.example\.test: pending/m)
    const txt = /^ {2}TXT\t(_slotline\.studio\.example\.test)\t(slotline-verify=[0-9a-f]+)\t\(ownership\)$/m.exec(added.stdout)
    assert.ok(txt, added.stdout)
    assert.match(added.stdout, /^ {2}CNAME\tstudio\.example\.test\tpages\.slotline\.test\t\(routing\)$/m)

    const early = await cli(['domains', 'check', ...as], outside.env)
    assert.equal(early.code, 1, 'not active yet')
    assert.match(early.stdout, /pending \(No TXT record at _slotline\.studio\.example\.test/)

    dns.zone.set(txt[1], { TXT: [txt[2]] })
    dns.zone.set('studio.example.test', { CNAME: TARGET })
    const checked = await cli(['domains', 'check', ...as], outside.env)
    assert.equal(checked.code, 0, checked.stdout + checked.stderr)
    assert.match(checked.stdout, /^studio\.example\.test: active, served at https:\/\/studio\.example\.test\/$/m)

    const listed = await cli(['domains', 'list', '--email', 'domains@example.test'], outside.env)
    assert.equal(listed.code, 0, listed.stderr)
    const line = JSON.parse(listed.stdout.trim())
    assert.equal(line.page, 'studio.page')
    assert.equal(line.state, 'active')

    const removed = await cli(['domains', 'remove', ...as], outside.env)
    assert.equal(removed.code, 0, removed.stderr)
    assert.match(removed.stdout, /^studio\.example\.test: removed/m)
  })
})
