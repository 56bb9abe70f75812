import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { appsTable } from '../../src/dashboard/apps.ts'
import { oauthRepository } from '../../src/store/oauth.ts'
import { usersRepository } from '../../src/store/users.ts'
import { makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { freshEmail, Visitor } from '../helpers/dashboard.ts'

describe(`dashboard /settings/apps (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('sends a signed-out visitor to sign in first', async () => {
    const res = await Visitor.of(t).get('/settings/apps')
    assert.equal(res.location, '/login?next=%2Fsettings%2Fapps')
  })

  it('says what will appear while no application is connected', async () => {
    const v = Visitor.of(t)
    await v.register({ email: freshEmail() })
    const res = await v.get('/settings/apps')
    assert.equal(res.status, 200)
    assert.match(res.text, /Applications \(0\)/)
    assert.match(res.text, /No application is connected/)
    assert.match(res.text, /Disconnect button: its very next request after that fails/)
  })

  it('answers 404 for a grant that is not the user’s, and 403 without the CSRF token', async () => {
    const v = Visitor.of(t)
    await v.register({ email: freshEmail() })
    assert.equal((await v.submit('/settings/apps', {}, '/settings/apps/1/disconnect')).status, 404)
    assert.equal((await v.post('/settings/apps/1/disconnect', {})).status, 403)
  })

  it('lists each application with name, client, scopes, dates and a Disconnect form; names are text', async () => {
    const user = await makeUser(t, { timezone: 'UTC' })
    const html = appsTable(
      user,
      [
        {
          grantId: 7,
          name: '<b>Agent</b>',
          clientId: 'c-123',
          metadataUrl: null,
          redirectHosts: ['127.0.0.1:33418'],
          scopes: ['profile:read'],
          authorisedAt: '2026-11-20T10:00:00.000Z',
          lastUsedAt: null,
        },
        {
          grantId: 9,
          name: 'Tool',
          clientId: 'https://tool.example/meta.json',
          metadataUrl: 'https://tool.example/meta.json',
          redirectHosts: ['tool.example'],
          scopes: ['profile:read', 'profile:write'],
          authorisedAt: '2026-11-21T10:00:00.000Z',
          lastUsedAt: '2026-11-22T08:30:00.000Z',
        },
      ],
      'token-value',
    ).html
    assert.match(
      html,
      /<strong>&lt;b&gt;Agent&lt;\/b&gt;<\/strong><br><span class="muted">Returns you to 127.0.0.1:33418<\/span><br><span class="muted">c-123<\/span>/,
    )
    assert.match(
      html,
      /<td data-label="Access">profile:read, profile:write<\/td><td data-label="Connected">21 Nov 2026, 10:00<\/td><td data-label="Last used">22 Nov 2026, 08:30<\/td>/,
    )
    assert.match(html, />Never<\/td>/)
    assert.match(html, /action="\/settings\/apps\/7\/disconnect"><input type="hidden" name="_csrf" value="token-value">/)
  })

  it('tells two applications of one name apart: where each returns you, when each was connected, and which one a Disconnect ends', async () => {
    const v = Visitor.of(t)
    const email = freshEmail()
    await v.register({ email })
    const user = (await usersRepository.findByEmail(t.ctx.db, email))!
    const apps = [
      { clientId: `same-name-a-${user.id}`, redirectUris: ['https://agent-one.example/callback'] },
      { clientId: `same-name-b-${user.id}`, redirectUris: ['http://127.0.0.1:41234/callback', 'http://127.0.0.1:41234/again'] },
    ]
    for (const app of apps) {
      await oauthRepository.saveClient(t.ctx.db, { ...app, name: 'Claude' })
      await oauthRepository.upsertGrant(t.ctx.db, user.id, app.clientId, ['profile:read'])
    }
    const page = await v.get('/settings/apps')
    assert.match(page.text, /Applications \(2\)/)
    assert.match(page.text, /Returns you to agent-one\.example</)
    assert.match(page.text, /Returns you to 127\.0\.0\.1:41234</)
    const labels = [...page.text.matchAll(/aria-label="(Disconnect Claude[^"]*)"/g)].map((m) => m[1])
    assert.equal(labels.length, 2)
    assert.notEqual(labels[0], labels[1], 'each button says which application it ends')
    assert.match(labels[0], /^Disconnect Claude at agent-one\.example, connected \d/)
    const second = [...page.text.matchAll(/action="(\/settings\/apps\/\d+\/disconnect)"/g)].map((m) => m[1])[1]
    await v.submit('/settings/apps', {}, second)
    const after = await v.get('/settings/apps')
    assert.match(after.text, /Applications \(1\)/)
    assert.match(after.text, /Returns you to agent-one\.example</, 'the other application of the same name stays')
  })
})
