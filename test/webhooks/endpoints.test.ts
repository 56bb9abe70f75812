import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { startReceiver } from './receiver.ts'

describe(`webhook endpoints through the API (${STORE})`, () => {
  let t: TestApp
  let token: string
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let profileId: number

  before(async () => {
    receiver = await startReceiver()
    t = await startApp({ WEBHOOK_URL_ALLOW_HOSTS: receiver.hostPort })
    const account = await makeAccount(t)
    token = account.token
    profileId = (await makeProfile(t, account.user)).id
  })
  after(async () => {
    await t.close()
    await receiver.close()
  })

  it('creates an endpoint, shows its secret once, and signs a test event the standard library verifies', async () => {
    const created = await t.request('POST', '/v1/webhooks', { token, body: { url: receiver.url, eventTypes: ['form.submitted'], description: 'CRM' } })
    assert.equal(created.status, 201, created.text)
    const secret = created.body.meta.secret as string
    assert.match(secret, /^whsec_[A-Za-z0-9+/=]{44}$/)
    assert.equal(created.body.data.url, receiver.url)
    assert.equal(created.body.data.enabled, true)

    const shown = await t.request('GET', `/v1/webhooks/${created.body.data.id}`, { token })
    assert.equal(shown.status, 200)
    assert.doesNotMatch(shown.text, /whsec_/)
    const listed = await t.request('GET', '/v1/webhooks', { token })
    assert.doesNotMatch(listed.text, /whsec_/)

    const before = receiver.received.length
    const test = await t.request('POST', `/v1/webhooks/${created.body.data.id}/test`, { token })
    assert.equal(test.status, 202, test.text)
    const got = await receiver.waitFor(before + 1)
    const body = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as { type: string; data: unknown }
    assert.equal(body.type, 'webhook.test')
    assert.equal(got.headers['webhook-id'], test.body.data.messageId)

    // The attempt in flight is recorded once the sender's pass ends.
    await t.ctx.webhooks.runOnce()
    const log = await t.request('GET', `/v1/webhooks/${created.body.data.id}/deliveries`, { token })
    assert.equal(log.status, 200)
    assert.equal(log.body.data[0].status, 'succeeded')
    assert.equal(log.body.data[0].lastStatus, 200)
    assert.doesNotMatch(log.text, /whsec_/)
  })

  it('refuses private addresses, unknown event types and other accounts’ pages, naming each field', async () => {
    const res = await t.request('POST', '/v1/webhooks', {
      token,
      body: { url: 'http://10.0.0.8/hook', eventTypes: ['form.submitted'], profileIds: [profileId, 999999] },
    })
    assert.equal(res.status, 422, res.text)
    assert.ok(res.body.errors.url)
    assert.ok(res.body.errors['profileIds.1'])
    const typo = await t.request('POST', '/v1/webhooks', { token, body: { url: 'https://hooks.example.com/x', eventTypes: ['form.sent'] } })
    assert.equal(typo.status, 422)
    assert.ok(Object.keys(typo.body.errors).some((k) => k.startsWith('eventTypes')))
    const metadata = await t.request('POST', '/v1/webhooks', { token, body: { url: 'http://169.254.169.254/latest', eventTypes: ['page.updated'] } })
    assert.equal(metadata.status, 422)
  })

  it('rotates the secret: during the grace every delivery verifies with the old and with the new secret', async () => {
    const created = await t.request('POST', '/v1/webhooks', { token, body: { url: receiver.url, eventTypes: ['page.updated'] } })
    const id = created.body.data.id
    const oldSecret = created.body.meta.secret as string
    const rotated = await t.request('POST', `/v1/webhooks/${id}/secret`, { token, body: { graceHours: 2 } })
    assert.equal(rotated.status, 200, rotated.text)
    const newSecret = rotated.body.meta.secret as string
    assert.notEqual(newSecret, oldSecret)
    assert.ok(rotated.body.data.secretRotatedUntil)

    const n = receiver.received.length
    await t.request('POST', `/v1/webhooks/${id}/test`, { token })
    const got = await receiver.waitFor(n + 1)
    assert.equal(String(got.headers['webhook-signature']).split(' ').length, 2)
    for (const secret of [oldSecret, newSecret]) new Webhook(secret).verify(got.body, got.headers as Record<string, string>)

    const noGrace = await t.request('POST', `/v1/webhooks/${id}/secret`, { token, body: { graceHours: 0 } })
    const m = receiver.received.length
    await t.request('POST', `/v1/webhooks/${id}/test`, { token })
    const later = await receiver.waitFor(m + 1)
    new Webhook(noGrace.body.meta.secret).verify(later.body, later.headers as Record<string, string>)
    assert.throws(() => new Webhook(newSecret).verify(later.body, later.headers as Record<string, string>))
  })

  it('keeps another account’s endpoints out of reach', async () => {
    const created = await t.request('POST', '/v1/webhooks', { token, body: { url: receiver.url, eventTypes: ['page.updated'] } })
    const other = await makeAccount(t)
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const) {
      const res = await t.request(method, `/v1/webhooks/${created.body.data.id}${path}`, {
        token: other.token,
        body: method === 'PATCH' ? { enabled: false } : undefined,
      })
      assert.equal(res.status, 404, `${method} ${path}`)
    }
  })
})
