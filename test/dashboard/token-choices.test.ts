import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { accounts } from '../../src/auth/accounts.ts'
import { tokensRepository } from '../../src/store/tokens.ts'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, registeredVisitor } from '../helpers/dashboard.ts'

describe(`dashboard tokens: read-only by default, unique names, revoke asks first (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('offers read-only by default: only profile:read is ticked', async () => {
    const { v } = await registeredVisitor(t)
    const page = await v.get('/settings/tokens')
    assert.match(page.text, /<input type="checkbox" name="abilities" value="profile:read" checked>/)
    assert.match(page.text, /<input type="checkbox" name="abilities" value="profile:write">/)
  })

  it('refuses a second token of the same name (letter case aside), naming the field', async () => {
    const { v, user } = await registeredVisitor(t)
    assert.equal((await v.submit('/settings/tokens', { name: 'Zapier', abilities: ['profile:read'] })).status, 200)
    const again = await v.submit('/settings/tokens', { name: 'zapier ', abilities: ['profile:read'] })
    assert.equal(again.status, 422)
    assert.match(again.text, /id="f-name-error">You already have a token named “zapier”/)
    assert.equal((await tokensRepository.listByUser(t.ctx.db, user.id)).length, 1)
  })

  it('numbers unnamed tokens so that no two share a name, and lets two accounts use the same name', async () => {
    const user = await makeUser(t)
    const names = []
    for (let i = 0; i < 3; i++) names.push((await accounts.createToken(t.ctx.db, user.id)).record.name)
    assert.deepEqual(names, ['Personal token', 'Personal token 2', 'Personal token 3'])
    const other = await makeUser(t)
    assert.equal((await accounts.createToken(t.ctx.db, other.id, { name: 'Personal token' })).record.name, 'Personal token')
  })

  it('asks before revoking, on a page that works without script; "Keep it" keeps it', async () => {
    const { v, user } = await registeredVisitor(t)
    const { token, record } = await accounts.createToken(t.ctx.db, user.id, { name: 'CI deploy' })
    const list = await v.get('/settings/tokens')
    assert.match(list.text, new RegExp(`<a class="button secondary" href="/settings/tokens/${record.id}/revoke" aria-label="Revoke CI deploy…">Revoke…</a>`))
    const ask = await v.get(`/settings/tokens/${record.id}/revoke`)
    assert.equal(ask.status, 200)
    assert.match(ask.text, /<h1>Revoke “CI deploy”\?<\/h1>/)
    assert.match(ask.text, /<a href="\/settings\/tokens">Keep it<\/a>/)
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 200, 'asking revokes nothing')
    const done = await v.post(`/settings/tokens/${record.id}/revoke`, { _csrf: csrfOf(ask.text) })
    assert.equal(done.status, 303)
    assert.equal((await t.request('GET', '/v1/me', { token })).status, 401)
  })

  it('answers 404 for the confirmation page of another account’s token', async () => {
    const owner = await makeUser(t)
    const { record } = await accounts.createToken(t.ctx.db, owner.id, { name: 'not yours' })
    const { v } = await registeredVisitor(t)
    assert.equal((await v.get(`/settings/tokens/${record.id}/revoke`)).status, 404)
  })
})
