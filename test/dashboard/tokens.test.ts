import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { accounts } from '../../src/auth/accounts.ts'
import { tokensRepository } from '../../src/store/tokens.ts'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { csrfOf, registeredVisitor, Visitor } from '../helpers/dashboard.ts'

const tokenOn = (html: string) => /id="new-token">(slp_[0-9A-Za-z]{40})</.exec(html)?.[1]

describe(`dashboard /settings/tokens (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  const signedIn = () => registeredVisitor(t)

  it('is where GET /v1/ says tokens are issued', async () => {
    const issuedAt = ((await (await fetch(`${t.url}/v1/`)).json()) as any).data.authentication.issuedAt
    assert.equal(issuedAt, `${t.url}/settings/tokens`)
    const { v } = await signedIn()
    const page = await v.get(issuedAt)
    assert.equal(page.status, 200)
    assert.match(page.text, /<h1>API tokens<\/h1>/)
  })

  it('sends a signed-out visitor to sign in first', async () => {
    const res = await Visitor.of(t).get('/settings/tokens')
    assert.equal(res.status, 303)
    assert.equal(res.location, '/login?next=%2Fsettings%2Ftokens')
  })

  it('issues a token shown once, with a copy button and a curl example that works', async () => {
    const { v, user } = await signedIn()
    const res = await v.submit('/settings/tokens', { name: 'backup <script>', abilities: ['profile:read'] })
    assert.equal(res.status, 200)
    const token = tokenOn(res.text)
    assert.ok(token, 'the token is on the page')
    assert.match(res.text, /data-copy="new-token"/)
    assert.ok(res.text.includes(`curl -H "Authorization: Bearer ${token}" ${t.url}/v1/me`))
    assert.match(res.text, /backup &lt;script&gt;/)
    assert.equal(res.headers.get('cache-control'), 'private, no-store')
    const me = await fetch(`${t.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal(me.status, 200)
    assert.deepEqual((await me.json()).data.abilities, ['profile:read'])
    // Never shown again.
    const later = await v.get('/settings/tokens')
    assert.ok(!later.text.includes(token!))
    assert.match(later.text, /backup &lt;script&gt;/)
    const [stored] = await tokensRepository.listByUser(t.ctx.db, user.id)
    assert.deepEqual(stored.abilities, ['profile:read'])
  })

  it('lists name, abilities, created and last used', async () => {
    const { v } = await signedIn()
    const token = tokenOn((await v.submit('/settings/tokens', { name: 'used one', abilities: ['profile:read', 'profile:write'] })).text)!
    assert.match(
      (await v.get('/settings/tokens')).text,
      /<td>used one<\/td><td data-label="Abilities">profile:read, profile:write<\/td><td data-label="Created">[^<]+<\/td><td data-label="Last used">Never<\/td>/,
    )
    await fetch(`${t.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })
    assert.doesNotMatch((await v.get('/settings/tokens')).text, />Never<\/td>/)
  })

  it('refuses a token without abilities, naming the field and keeping the name', async () => {
    const { v, user } = await signedIn()
    const res = await v.submit('/settings/tokens', { name: 'kept name' })
    assert.equal(res.status, 422)
    assert.match(res.text, /id="f-abilities-error">Choose at least one ability/)
    assert.match(res.text, /value="kept name"/)
    assert.equal((await tokensRepository.listByUser(t.ctx.db, user.id)).length, 0)
  })

  it('refuses the sixth token with a clear message', async () => {
    const { v, user } = await signedIn()
    for (let i = 0; i < 5; i++) await accounts.createToken(t.ctx.db, user.id, { name: `t${i}` })
    const page = await v.get('/settings/tokens')
    assert.match(page.text, /You hold 5 tokens, the most allowed/)
    const res = await v.post('/settings/tokens', { _csrf: csrfOf(page.text), name: 'sixth', abilities: 'profile:read' })
    assert.equal(res.status, 409)
    assert.match(res.text, /You already hold 5 tokens, the most allowed. Revoke one/)
    assert.equal(tokenOn(res.text), undefined)
    assert.equal((await tokensRepository.listByUser(t.ctx.db, user.id)).length, 5)
  })

  it('revokes a token: its very next API request is 401', async () => {
    const { v, user } = await signedIn()
    const token = tokenOn((await v.submit('/settings/tokens', { name: 'to revoke', abilities: ['profile:read'] })).text)!
    assert.equal((await fetch(`${t.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status, 200)
    const [record] = await tokensRepository.listByUser(t.ctx.db, user.id)
    const res = await v.submit('/settings/tokens', {}, `/settings/tokens/${record.id}/revoke`)
    assert.equal(res.status, 303)
    assert.match((await v.get('/settings/tokens')).text, /The token is revoked/)
    assert.equal((await fetch(`${t.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status, 401)
  })

  it("answers 404 for another account's token and leaves it alone", async () => {
    const { user: owner } = await signedIn()
    const { token } = await accounts.createToken(t.ctx.db, owner.id, { name: 'not yours' })
    const [record] = await tokensRepository.listByUser(t.ctx.db, owner.id)
    const { v: intruder } = await signedIn()
    const res = await intruder.submit('/settings/tokens', {}, `/settings/tokens/${record.id}/revoke`)
    assert.equal(res.status, 404)
    assert.doesNotMatch((await intruder.get('/settings/tokens')).text, /not yours/)
    assert.equal((await fetch(`${t.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status, 200)
  })

  it('refuses a revoke without the CSRF token (403) and keeps the token', async () => {
    const { v, user } = await signedIn()
    await accounts.createToken(t.ctx.db, user.id, { name: 'kept' })
    const [record] = await tokensRepository.listByUser(t.ctx.db, user.id)
    assert.equal((await v.post(`/settings/tokens/${record.id}/revoke`, {})).status, 403)
    assert.equal((await tokensRepository.listByUser(t.ctx.db, user.id)).length, 1)
  })
})
