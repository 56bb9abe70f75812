import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'
import { tokenRequest, tokensFor } from '../oauth/helpers.ts'

const me = (t: TestApp, token: unknown) => t.request('GET', '/v1/me', { token: String(token) })

describe(`the refresh grace never forks a token family (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  const refreshForm = (clientId: string, refreshToken: unknown) => ({ grant_type: 'refresh_token', refresh_token: String(refreshToken), client_id: clientId })

  it('gives a rotated token presented again in the grace the same pair once, then ends the grant', async () => {
    const { c, tokens } = await tokensFor(t)
    const form = refreshForm(c.client.client_id, tokens.refresh_token)
    const first = await tokenRequest(t, form)
    assert.equal(first.status, 200)
    const again = await tokenRequest(t, form)
    assert.equal(again.status, 200)
    assert.equal(again.body.access_token, first.body.access_token)
    assert.equal(again.body.refresh_token, first.body.refresh_token)
    const third = await tokenRequest(t, form)
    assert.equal(third.status, 400)
    assert.equal(third.body.error, 'invalid_grant')
    assert.equal((await me(t, first.body.access_token)).status, 401, 'reuse detected: the whole grant is gone')
  })

  it('answers six racing presentations with at most one pair, so the attack yields no extra chain', async () => {
    const { c, tokens } = await tokensFor(t)
    const form = refreshForm(c.client.client_id, tokens.refresh_token)
    const answers = await Promise.all(Array.from({ length: 6 }, () => tokenRequest(t, form)))
    const issued = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.refresh_token))
    assert.equal(issued.size, 1, 'one pair, whoever won the race')
    assert.ok(answers.filter((a) => a.status === 200).length <= 2, 'the same pair at most twice (the rotation and one retry)')
  })

  it('once the client moved on with the new refresh token, the old one in the grace ends the grant', async () => {
    const { c, tokens } = await tokensFor(t)
    const first = await tokenRequest(t, refreshForm(c.client.client_id, tokens.refresh_token))
    const second = await tokenRequest(t, refreshForm(c.client.client_id, first.body.refresh_token))
    assert.equal(second.status, 200)
    const thief = await tokenRequest(t, refreshForm(c.client.client_id, tokens.refresh_token))
    assert.equal(thief.body.error, 'invalid_grant')
    assert.equal((await me(t, second.body.access_token)).status, 401)
  })

  it('keeps no readable token in the store: the kept pair is sealed', async () => {
    const { c, tokens } = await tokensFor(t)
    const first = await tokenRequest(t, refreshForm(c.client.client_id, tokens.refresh_token))
    const rows = await t.ctx.db.selectFrom('tokens').select('successor').where('successor', 'is not', null).execute()
    assert.ok(rows.length >= 1)
    for (const r of rows) assert.ok(!String(r.successor).includes(String(first.body.access_token)))
  })
})
