import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Client } from '@modelcontextprotocol/client'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../../helpers/app.ts'
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server.ts'
import { callTool, connectMcp, errorOf } from '../../helpers/mcp.ts'

const TARGET = 'pages.slotline.test'

describe(`MCP connect_domain (${STORE})`, () => {
  let t: TestApp
  let dns: TestDnsServer
  let client: Client
  let login: string
  let token: string
  before(async () => {
    dns = await startDnsServer()
    t = await startApp({ DOMAINS_DNS_SERVERS: dns.address, DOMAINS_CNAME_TARGET: TARGET, PUBLIC_URL: 'http://slotline.test' })
    const account = await makeAccount(t)
    token = account.token
    login = (await makeProfile(t, account.user)).login
    client = await connectMcp(t, account.token)
  })
  after(async () => {
    await client?.close()
    await t?.close()
    await dns?.close()
  })

  it('stores nothing on a dry run, and refuses the service’s own host naming the field', async () => {
    const result = await callTool(client, 'connect_domain', { profileKey: login, domain: 'agent.example.test', dryRun: true })
    assert.ok(!result.isError, result.content[0].text)
    assert.equal(result.structuredContent.domain.state, 'pending')
    assert.equal((await t.request('GET', `/v1/profiles/${login}/domain`, { token })).body.data, null)
    const again = await callTool(client, 'connect_domain', { profileKey: login, domain: 'slotline.test' })
    assert.equal(errorOf(again).code, 'validation_failed')
    assert.ok(errorOf(again).errors?.domain, 'names the domain field')
  })

  it('shows the records on the first call and turns the domain active on a call after they exist', async () => {
    const first = await callTool(client, 'connect_domain', { profileKey: login, domain: 'Agent.Example.test' })
    assert.ok(!first.isError, first.content[0].text)
    const domain = first.structuredContent.domain
    assert.equal(domain.state, 'pending')
    assert.match(first.content[0].text ?? '', /call connect_domain again/)
    const txt = domain.records.find((r: { type: string }) => r.type === 'TXT')
    assert.equal(txt.name, '_slotline.agent.example.test')
    dns.zone.set(txt.name, { TXT: [txt.value] })
    dns.zone.set('agent.example.test', { CNAME: TARGET })
    const second = await callTool(client, 'connect_domain', { profileKey: login, domain: 'agent.example.test' })
    assert.equal(second.structuredContent.domain.state, 'active', second.content[0].text)
    assert.match(second.content[0].text ?? '', /served at https:\/\/agent\.example\.test\//)
    assert.equal((await t.app.inject({ method: 'GET', url: '/', headers: { host: 'agent.example.test' } })).statusCode, 200)
  })
})
