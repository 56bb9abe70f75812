import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts'

describe(`/v1/profiles/{profileKey}/domain (${STORE})`, () => {
  let t: TestApp
  let dns: TestDnsServer
  before(async () => {
    dns = await startDnsServer()
    t = await startApp({ DOMAINS_DNS_SERVERS: dns.address, DOMAINS_CNAME_TARGET: 'pages.slotline.test', PUBLIC_URL: 'http://slotline.test' })
  })
  after(async () => {
    await t.close()
    await dns.close()
  })

  it('connects, shows the records, checks them, serves the page there and removes it', async () => {
    const { user, token } = await makeAccount(t)
    const { login } = await makeProfile(t, user)
    assert.deepEqual((await t.request('GET', `/v1/profiles/${login}/domain`, { token })).body, { data: null })
    const put = await t.request('PUT', `/v1/profiles/${login}/domain`, { token, body: { domain: 'api.example.test' } })
    assert.equal(put.status, 200, put.text)
    assert.equal(put.body.data.state, 'pending')
    const txt = put.body.data.records.find((r: { type: string }) => r.type === 'TXT')
    dns.zone.set(txt.name, { TXT: [txt.value] })
    dns.zone.set('api.example.test', { CNAME: 'pages.slotline.test' })
    const checked = await t.request('POST', `/v1/profiles/${login}/domain/check`, { token })
    assert.equal(checked.body.data.state, 'active', checked.text)
    assert.equal((await fetch(`${t.url}/-/domains/allowed?domain=api.example.test`)).status, 200)
    const removed = await t.request('DELETE', `/v1/profiles/${login}/domain`, { token })
    assert.equal(removed.body.data.state, 'removed')
    assert.equal((await fetch(`${t.url}/-/domains/allowed?domain=api.example.test`)).status, 404)
  })

  it('refuses the service’s own host with 422 naming domain', async () => {
    const { user, token } = await makeAccount(t)
    const { login } = await makeProfile(t, user)
    const own = await t.request('PUT', `/v1/profiles/${login}/domain`, { token, body: { domain: 'links.slotline.test' } })
    assert.equal(own.status, 422)
    assert.ok(own.body.errors.domain)
  })
})
