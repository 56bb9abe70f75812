import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

describe(`the country of a visit, through HTTP to the analytics API (${STORE})`, () => {
  let t: TestApp

  before(async () => {
    t = await startApp({ TRUST_PROXY: 'loopback' })
  })
  after(() => t?.close())

  // The registry files list 203.0.113.0/24 under AU and 2001:db8::/32 under JP: documentation
  // addresses, which no visitor has.
  it('counts a visit from a documentation address as unknown, and one from a public address by its country', async () => {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    for (const ip of ['203.0.113.9', '2001:db8::1', '::ffff:8.8.8.8']) {
      const res = await fetch(`${t.url}/${profile.login}`, { headers: { 'user-agent': BROWSER, accept: 'text/html', 'x-forwarded-for': ip } })
      assert.equal(res.status, 200)
      await res.arrayBuffer()
    }
    await t.ctx.intake.flush()
    const analytics = await t.request('GET', `/v1/profiles/${profile.id}/analytics?period=today&compare=false`, { token })
    assert.equal(analytics.status, 200, analytics.text)
    assert.deepEqual(analytics.body.data.countries, [
      { country: 'unknown', views: 2, clicks: 0 },
      { country: 'US', views: 1, clicks: 0 },
    ])
  })
})
