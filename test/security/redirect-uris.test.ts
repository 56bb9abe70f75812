import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type * as oauth from 'oauth4webapi'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { authorizationUrl, connect } from '../oauth/helpers.ts'

async function registerRaw(t: TestApp, redirectUris: string[]) {
  const res = await fetch(`${t.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: redirectUris }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, any> }
}

const count = async (t: TestApp) =>
  Number(
    (
      await t.ctx.db
        .selectFrom('oauth_clients')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

describe(`registration refuses malformed redirect URIs and stores them normalised (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  for (const uri of [
    'https:///cb',
    'https:cb',
    'https:/app.example/cb',
    'https://app.example/c\tb',
    'https://app.example/cb\n',
    'https://app.example/c\u0000b',
    'https://app.example\\cb',
    'http://localhost:8080/callback',
    'https://localhost/callback',
    'http://app.localhost/callback',
    'https://a.com;sandbox/cb',
    'https://a.com%3Bsandbox/cb',
    'https://user:pass@app.example/cb',
  ]) {
    it(`refuses ${JSON.stringify(uri)} with invalid_redirect_uri and registers nothing`, async () => {
      const before = await count(t)
      const res = await registerRaw(t, [uri])
      assert.equal(res.status, 400)
      assert.equal(res.body.error, 'invalid_redirect_uri')
      assert.equal(await count(t), before)
    })
  }

  it('stores and answers the normal form, which authorization requests must then use exactly', async () => {
    const res = await registerRaw(t, ['https://App.Example:443/cb', 'https://app.example/cb', 'http://127.0.0.1:43210/callback'])
    assert.equal(res.status, 201)
    assert.deepEqual(res.body.redirect_uris, ['https://app.example/cb', 'http://127.0.0.1:43210/callback'])
    const c = await connect(t)
    const client = { client_id: res.body.client_id } as oauth.Client
    const normal = await authorizationUrl(t, { client }, { redirect_uri: 'https://app.example/cb' })
    assert.equal((await c.visitor.get(normal.url.pathname + normal.url.search)).status, 200)
    const other = await authorizationUrl(t, { client }, { redirect_uri: 'https://APP.example/cb' })
    assert.equal((await c.visitor.get(other.url.pathname + other.url.search)).status, 400)
  })
})
