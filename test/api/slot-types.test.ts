import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Ajv } from 'ajv'
import { SLOT_TYPES } from '../../src/slots/types.ts'
import { makeAccount, makeProfile, makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let token: string
before(async () => {
  t = await startApp()
  token = (await makeAccount(t)).token
})
after(() => t.close())

const FIELDS = ['computed', 'description', 'enumLabels', 'example', 'schema', 'title', 'type', 'visibility', 'writable']

describe(`GET /slot-types (${STORE})`, () => {
  it('answers 401 without a token', async () => {
    assert.equal((await t.request('GET', '/v1/slot-types')).status, 401)
  })

  it('describes the ten types with every field of the description', async () => {
    const res = await t.request('GET', '/v1/slot-types', { token })
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.data.map((d: any) => d.type),
      [...SLOT_TYPES],
    )
    for (const d of res.body.data) {
      assert.deepEqual(Object.keys(d).sort(), FIELDS)
      assert.equal(typeof d.writable, 'boolean')
    }
    assert.deepEqual(
      res.body.data.filter((d: any) => !d.writable).map((d: any) => d.type),
      ['event', 'form'],
    )
  })

  it('publishes schemas a fresh JSON Schema validator accepts each example with, and that refuse unknown keys', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true })
    for (const d of (await t.request('GET', '/v1/slot-types', { token })).body.data) {
      const validate = ajv.compile(d.schema)
      assert.ok(validate(d.example), `${d.type}: ${JSON.stringify(validate.errors)}`)
      if (d.type !== 'divider') assert.equal(validate({ ...d.example, surprise: 1 }), false, d.type)
    }
  })

  it('publishes the very schema writes are checked with: what it refuses, the API refuses', async () => {
    const { user } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const write = await makeToken(t, user)
    const button = (await t.request('GET', '/v1/slot-types/button', { token })).body.data
    assert.equal(button.schema.properties.title.maxLength, 120)
    assert.deepEqual(button.schema.required, ['link'])
    const res = await t.request('POST', `/v1/profiles/${profile.id}/slots`, {
      token: write,
      body: { type: 'button', data: { link: 'example.com', title: 'x'.repeat(121) } },
    })
    assert.equal(res.status, 422)
    assert.deepEqual(Object.keys(res.body.errors), ['data.title'])
  })
})

describe(`GET /slot-types/{type} (${STORE})`, () => {
  it('answers 401 without a token', async () => {
    assert.equal((await t.request('GET', '/v1/slot-types/button')).status, 401)
  })

  it('describes one type', async () => {
    const res = await t.request('GET', '/v1/slot-types/youtube', { token })
    assert.equal(res.status, 200)
    assert.deepEqual(Object.keys(res.body.data).sort(), FIELDS)
    assert.deepEqual(Object.keys(res.body.data.computed.properties), ['videoId', 'embedUrl', 'thumbnailUrl'])
    assert.equal(res.body.data.schema.additionalProperties, false)
  })

  it('labels every button style', async () => {
    const res = await t.request('GET', '/v1/slot-types/button', { token })
    assert.deepEqual(Object.keys(res.body.data.enumLabels.style), res.body.data.schema.properties.style.enum)
  })

  it('answers an unknown type with 404 not_found and errors null', async () => {
    for (const type of ['countdown', 'Button', 'x'.repeat(300)]) {
      const res = await t.request('GET', `/v1/slot-types/${type}`, { token })
      assert.equal(res.status, 404)
      assert.equal(res.body.code, 'not_found')
      assert.equal(res.body.errors, null)
      assert.match(res.body.documentation, /#error-not_found$/)
    }
  })
})
