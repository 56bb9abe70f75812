import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/dashboard.ts'
import { approve, authorizationUrl, connect, discover, register } from '../oauth/helpers.ts'

describe(`/oauth/authorize is no open redirector (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  const PHISH = 'https://evil.example/phish'

  for (const [extra, error] of [
    [{}, 'invalid_request'], // no code_challenge
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ scope: 'admin' }, 'invalid_scope'],
  ] as const) {
    it(`shows ${error} for a client nobody approved on the page, signed out or in, never redirecting to it`, async () => {
      const as = await discover(t)
      const client = await register(as, { redirect_uris: [PHISH] })
      const url = new URL('/oauth/authorize', t.url)
      url.searchParams.set('client_id', client.client_id)
      url.searchParams.set('response_type', 'code')
      for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v)
      const stranger = await Visitor.of(t).get(url.pathname + url.search)
      assert.equal(stranger.status, 400)
      assert.equal(stranger.location, null)
      assert.doesNotMatch(stranger.text, /evil\.example/)
      const { visitor } = await connect(t)
      const signedIn = await visitor.get(url.pathname + url.search)
      assert.equal(signedIn.status, 400)
      assert.equal(signedIn.location, null)
      assert.match(signedIn.text, /role="alert"/)
    })
  }

  it('still sends errors back to a client the signed-in user approved', async () => {
    const c = await connect(t)
    await approve(c.visitor, (await authorizationUrl(t, c)).url)
    const a = await authorizationUrl(t, c, { scope: 'admin' })
    const res = await c.visitor.get(a.url.pathname + a.url.search)
    assert.equal(res.status, 303)
    assert.equal(new URL(String(res.location)).searchParams.get('error'), 'invalid_scope')
    // The same request from someone who never approved it is a page.
    const stranger = await Visitor.of(t).get(a.url.pathname + a.url.search)
    assert.equal(stranger.status, 400)
    assert.equal(stranger.location, null)
  })
})
