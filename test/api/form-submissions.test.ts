import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { slotService } from '../../src/slots/slot-service.ts'
import { formSubmissionsRepository } from '../../src/store/form-submissions.ts'
import { formsRepository } from '../../src/store/forms.ts'
import type { User } from '../../src/store/users.ts'
import { makeAccount, makeProfile, makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { callTool, connectMcp } from '../helpers/mcp.ts'

const fields = [
  { name: 'name', label: 'Your name', type: 'text' as const, required: true },
  { name: 'email', label: 'E-mail', type: 'email' as const, required: true },
]

/** A page with a form slot and a text slot, and `n` submissions (oldest first: "Visitor 0"). */
async function pageWithLeads(t: TestApp, user: User, n: number) {
  const profile = await makeProfile(t, user)
  const form = await formsRepository.insert(t.ctx.db, { userId: user.id, title: 'Contact', description: '', fields, submitLabel: 'Send' })
  const [slot] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'form', data: { formId: form.id, view: 'inline' } }])
  const [text] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'text', data: { title: 'Not a form' } }])
  for (let i = 0; i < n; i++) {
    await formSubmissionsRepository.insert(t.ctx.db, {
      formId: form.id,
      profileId: profile.id,
      slotId: slot.id,
      data: { name: `Visitor ${i}`, email: `v${i}@example.test` },
    })
  }
  return { profile, form, slot, text }
}

describe(`GET /profiles/{profileKey}/forms/{slot}/submissions (${STORE})`, () => {
  let t: TestApp
  let user: User
  let token: string
  before(async () => {
    t = await startApp()
    ;({ user, token } = await makeAccount(t))
  })
  after(() => t.close())

  it('lists the submissions newest first with the form’s fields, a page at a time, until nextCursor is null', async () => {
    const { profile, slot, form } = await pageWithLeads(t, user, 5)
    const path = `/v1/profiles/${profile.login}/forms/${slot.id}/submissions`
    const first = await t.request('GET', `${path}?limit=2`, { token })
    assert.equal(first.status, 200)
    assert.deepEqual(
      first.body.data.map((s: any) => s.data.name),
      ['Visitor 4', 'Visitor 3'],
    )
    assert.equal(first.body.data[0].slotId, slot.id)
    assert.equal(first.body.data[0].formId, form.id)
    assert.deepEqual(first.body.meta.form, { id: form.id, title: 'Contact', fields: fields.map(({ name, label, type }) => ({ name, label, type })) })
    assert.equal(first.body.meta.limit, 2)
    const seen = [...first.body.data]
    let cursor = first.body.meta.nextCursor
    while (cursor) {
      const next = await t.request('GET', `${path}?limit=2&cursor=${cursor}`, { token })
      assert.equal(next.status, 200)
      seen.push(...next.body.data)
      cursor = next.body.meta.nextCursor
    }
    assert.deepEqual(
      seen.map((s) => s.data.name),
      ['Visitor 4', 'Visitor 3', 'Visitor 2', 'Visitor 1', 'Visitor 0'],
    )
  })

  it('answers by numeric profile id as well, 25 a page by default', async () => {
    const { profile, slot } = await pageWithLeads(t, user, 27)
    const res = await t.request('GET', `/v1/profiles/${profile.id}/forms/${slot.id}/submissions`, { token })
    assert.equal(res.status, 200)
    assert.equal(res.body.data.length, 25)
    assert.equal(typeof res.body.meta.nextCursor, 'string')
  })

  it('answers an empty list with a null cursor for a form nobody used yet', async () => {
    const { profile, slot } = await pageWithLeads(t, user, 0)
    const res = await t.request('GET', `/v1/profiles/${profile.login}/forms/${slot.id}/submissions`, { token })
    assert.deepEqual(res.body, { data: [], meta: { nextCursor: null, limit: 25, form: res.body.meta.form } })
  })

  it('refuses a cursor it did not give out and a limit out of range with 422 naming the field', async () => {
    const { profile, slot } = await pageWithLeads(t, user, 1)
    const path = `/v1/profiles/${profile.login}/forms/${slot.id}/submissions`
    const bad = await t.request('GET', `${path}?cursor=nonsense`, { token })
    assert.equal(bad.status, 422)
    assert.ok(bad.body.errors.cursor, JSON.stringify(bad.body))
    const big = await t.request('GET', `${path}?limit=1000`, { token })
    assert.equal(big.status, 422)
    assert.ok(
      Object.keys(big.body.errors).some((k) => k.includes('limit')),
      JSON.stringify(big.body),
    )
  })

  it('answers 401 without a token', async () => {
    const { profile, slot } = await pageWithLeads(t, user, 1)
    const res = await t.request('GET', `/v1/profiles/${profile.login}/forms/${slot.id}/submissions`)
    assert.equal(res.status, 401)
    assert.equal(res.body.code, 'unauthenticated')
  })

  it('answers 403 to a token without profile:read', async () => {
    const { profile, slot } = await pageWithLeads(t, user, 1)
    const writeOnly = await makeToken(t, user, ['profile:write'])
    const res = await t.request('GET', `/v1/profiles/${profile.login}/forms/${slot.id}/submissions`, { token: writeOnly })
    assert.equal(res.status, 403)
    assert.equal(res.body.code, 'forbidden')
  })

  it('answers 404 for another account’s page, a slot that is not a form, and an unknown slot', async () => {
    const { profile, slot, text } = await pageWithLeads(t, user, 1)
    const other = await makeAccount(t)
    const foreign = await t.request('GET', `/v1/profiles/${profile.login}/forms/${slot.id}/submissions`, { token: other.token })
    assert.equal(foreign.status, 404)
    assert.equal((await t.request('GET', `/v1/profiles/${profile.login}/forms/${text.id}/submissions`, { token })).status, 404)
    assert.equal((await t.request('GET', `/v1/profiles/${profile.login}/forms/99999999/submissions`, { token })).status, 404)
    assert.equal((await t.request('GET', `/v1/profiles/${profile.login}/forms/9999999999999/submissions`, { token })).status, 404)
  })

  it('keeps the submissions of a deleted form slot readable under its old id (form null)', async () => {
    const { profile, slot } = await pageWithLeads(t, user, 2)
    assert.equal((await t.request('DELETE', `/v1/profiles/${profile.login}/slots/${slot.id}`, { token })).status, 204)
    const res = await t.request('GET', `/v1/profiles/${profile.login}/forms/${slot.id}/submissions`, { token })
    assert.equal(res.status, 200)
    assert.equal(res.body.data.length, 2)
    assert.equal(res.body.meta.form, null)
  })

  it('is documented in /openapi.json with its cursor', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json', { token })).body
    const op = doc.paths['/profiles/{profileKey}/forms/{slot}/submissions'].get
    assert.equal(op.operationId, 'listFormSubmissions')
    assert.ok(op.parameters.some((p: any) => p.name === 'cursor' && p.in === 'query'))
    assert.ok(op.responses['404'] && op.responses['401'])
  })
})

describe(`MCP list_form_submissions (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('answers the same page as the API, newest first, and a not-found error for a non-form slot', async () => {
    const { user, token } = await makeAccount(t)
    const { profile, slot, text } = await pageWithLeads(t, user, 3)
    const client = await connectMcp(t, await makeToken(t, user, ['profile:read']))
    try {
      const result = await callTool(client, 'list_form_submissions', { profileKey: profile.login, slot: slot.id, limit: 2 })
      assert.equal(result.isError, undefined)
      const api = await t.request('GET', `/v1/profiles/${profile.login}/forms/${slot.id}/submissions?limit=2`, { token })
      assert.deepEqual(result.structuredContent.submissions, api.body.data)
      assert.equal(result.structuredContent.nextCursor, api.body.meta.nextCursor)
      assert.equal(result.structuredContent.form.title, 'Contact')
      const rest = await callTool(client, 'list_form_submissions', { profileKey: profile.id, slot: slot.id, cursor: result.structuredContent.nextCursor })
      assert.deepEqual(
        rest.structuredContent.submissions.map((s: any) => s.data.name),
        ['Visitor 0'],
      )
      const wrong = await callTool(client, 'list_form_submissions', { profileKey: profile.login, slot: text.id })
      assert.equal(wrong.isError, true)
      assert.match(wrong.content[0].text ?? '', /not_found|no form slot/i)
    } finally {
      await client.close()
    }
  })
})
