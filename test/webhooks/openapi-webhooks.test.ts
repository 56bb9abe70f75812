import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { WEBHOOK_EVENTS } from '../../src/webhooks/event-types.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { startReceiver } from './receiver.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

// issue 45: each event "documented with a JSON Schema and an example in OpenAPI's webhooks
// section". The example and a real delivery both satisfy the documented body.

describe(`the webhooks section of /v1/openapi.json (${STORE})`, () => {
  let t: TestApp
  let token: string
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let doc: any

  before(async () => {
    receiver = await startReceiver()
    t = await startApp({ WEBHOOK_URL_ALLOW_HOSTS: receiver.hostPort })
    token = (await makeAccount(t)).token
    doc = (await t.request('GET', '/v1/openapi.json', { token })).body
  })
  after(async () => {
    await t.close()
    await receiver.close()
  })

  const bodySchema = (type: string) => doc.webhooks[type].post.requestBody.content['application/json'].schema
  const validator = (schema: unknown) => addFormats(new Ajv({ strict: false, allErrors: true })).compile(schema as object)

  it('documents every event type from its data schema, with an example that satisfies it', () => {
    assert.deepEqual(Object.keys(doc.webhooks).sort(), Object.keys(WEBHOOK_EVENTS).sort())
    for (const [type, event] of Object.entries(WEBHOOK_EVENTS)) {
      const post = doc.webhooks[type].post
      assert.deepEqual(bodySchema(type).properties.data, JSON.parse(JSON.stringify(event.data)), type)
      assert.deepEqual(
        post.parameters.map((p: { name: string }) => p.name),
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
      )
      const check = validator(bodySchema(type))
      const example: Record<string, unknown> = post.requestBody.content['application/json'].example
      assert.ok(check(example), `${type}: ${JSON.stringify(check.errors)}`)
      // The schema says something: another type's body is refused.
      assert.equal(check({ ...example, type: 'page.other' }), false)
    }
  })

  it('describes what is really sent', async () => {
    const created = await t.request('POST', '/v1/webhooks', { token, body: { url: receiver.url, eventTypes: ['page.updated'] } })
    assert.equal(created.status, 201, created.text)
    await t.request('POST', `/v1/webhooks/${created.body.data.id}/test`, { token })
    const got = await receiver.waitFor(receiver.received.length + 1)
    const check = validator(bodySchema('webhook.test'))
    assert.ok(check(JSON.parse(got.body)), JSON.stringify(check.errors))
  })
})
