import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/dashboard.ts'
import { discover, register } from '../oauth/helpers.ts'

const formAction = (csp: string | null) => /form-action ([^;]*)/.exec(csp ?? '')?.[1]

describe(`CSP form-action comes from the registered client, never from a query (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  const authorizeNext = (clientId: string, redirectUri: string) =>
    `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri }).toString()}`

  for (const page of ['/login', '/register']) {
    it(`${page}: a redirect_uri carrying ';sandbox' adds nothing to the policy`, async () => {
      const attack = '/oauth/authorize?redirect_uri=https://a.com;sandbox/cb'
      const res = await Visitor.of(t).get(`${page}?next=${encodeURIComponent(attack)}`)
      assert.equal(res.status, 200)
      const csp = res.headers.get('content-security-policy')
      assert.doesNotMatch(String(csp), /sandbox|a\.com/)
      assert.equal(formAction(csp), "'self'")
    })

    it(`${page}: a client's registered redirect is allowed, an unregistered one in the query is not`, async () => {
      const client = await register(await discover(t), { redirect_uris: ['https://app.example/cb'] })
      const own = await Visitor.of(t).get(`${page}?next=${encodeURIComponent(authorizeNext(client.client_id, 'https://app.example/cb'))}`)
      assert.equal(formAction(own.headers.get('content-security-policy')), "'self' https://app.example")
      const other = await Visitor.of(t).get(`${page}?next=${encodeURIComponent(authorizeNext(client.client_id, 'https://elsewhere.example;script-src *;/cb'))}`)
      assert.equal(formAction(other.headers.get('content-security-policy')), "'self'")
      const unknown = await Visitor.of(t).get(`${page}?next=${encodeURIComponent(authorizeNext('slc_unknown', 'https://app.example/cb'))}`)
      assert.equal(formAction(unknown.headers.get('content-security-policy')), "'self'")
    })
  }
})
