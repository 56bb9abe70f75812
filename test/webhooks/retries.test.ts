import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { RETRY_DELAYS_MS } from '../../src/webhooks/retry-schedule.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { startReceiver } from './receiver.ts'

describe(`webhook retries on a clock the test controls (${STORE})`, () => {
  let t: TestApp
  let token: string
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let clock = Date.now()

  before(async () => {
    receiver = await startReceiver()
    t = await startApp({ WEBHOOK_URL_ALLOW_HOSTS: receiver.hostPort })
    token = (await makeAccount(t)).token
    t.ctx.webhooks.now = () => clock
    t.ctx.webhooks.random = () => 0.5
    t.ctx.webhooks.timeoutMs = 300
  })
  after(async () => {
    await t.close()
    await receiver.close()
  })

  async function endpointWithTestEvent(): Promise<{ id: number; deliveryId: number }> {
    const created = await t.request('POST', '/v1/webhooks', { token, body: { url: receiver.url, eventTypes: ['page.updated'] } })
    assert.equal(created.status, 201, created.text)
    const id = created.body.data.id
    await t.ctx.webhooks.runOnce()
    const test = await t.request('POST', `/v1/webhooks/${id}/test`, { token })
    // Queued on the real clock: the test's clock starts no earlier.
    clock = Math.max(clock, Date.now())
    return { id, deliveryId: test.body.data.id }
  }

  const delivery = async (id: number, deliveryId: number) => {
    await t.ctx.webhooks.runOnce()
    const log = await t.request('GET', `/v1/webhooks/${id}/deliveries?limit=100`, { token })
    return log.body.data.find((d: { id: number }) => d.id === deliveryId)
  }

  it('tries a 500 again on the documented schedule, then gives up', async () => {
    receiver.answerWith(() => ({ status: 500, body: 'down' }))
    const { id, deliveryId } = await endpointWithTestEvent()
    let d = await delivery(id, deliveryId)
    assert.equal(d.attempts, 1)
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      assert.equal(d.status, 'pending', `after attempt ${i + 1}`)
      assert.equal(Date.parse(d.nextAttemptAt) - Date.parse(d.lastAttemptAt), delay, `delay after attempt ${i + 1}`)
      // Not a moment before it is due…
      clock = Date.parse(d.nextAttemptAt) - 1
      assert.equal((await delivery(id, deliveryId)).attempts, i + 1)
      // …and then once.
      clock += 1
      d = await delivery(id, deliveryId)
      assert.equal(d.attempts, i + 2)
    }
    assert.equal(d.status, 'failed')
    assert.equal(d.lastStatus, 500)
    assert.equal(d.lastResponse, 'down')
    const endpoint = await t.request('GET', `/v1/webhooks/${id}`, { token })
    assert.ok(endpoint.body.data.failingSince)
  })

  it('honours Retry-After on 429 and counts a timeout as a failed attempt', async () => {
    receiver.answerWith(() => ({ status: 429, headers: { 'retry-after': '3600' } }))
    const { id, deliveryId } = await endpointWithTestEvent()
    const d = await delivery(id, deliveryId)
    assert.equal(d.lastStatus, 429)
    assert.equal(Date.parse(d.nextAttemptAt) - Date.parse(d.lastAttemptAt), 3600_000)

    receiver.answerWith(() => 'hang')
    clock = Date.parse(d.nextAttemptAt)
    const timedOut = await delivery(id, deliveryId)
    assert.equal(timedOut.attempts, 2)
    assert.equal(timedOut.lastStatus, null)
    assert.match(timedOut.lastError, /within/)
    assert.equal(Date.parse(timedOut.nextAttemptAt) - Date.parse(timedOut.lastAttemptAt), RETRY_DELAYS_MS[1])

    receiver.answerWith(() => ({ status: 204 }))
    clock = Date.parse(timedOut.nextAttemptAt)
    const sent = await delivery(id, deliveryId)
    assert.equal(sent.status, 'succeeded')
    assert.equal((await t.request('GET', `/v1/webhooks/${id}`, { token })).body.data.failingSince, null)
  })

  it('switches an endpoint off when it answers 410, and drops what was queued for it', async () => {
    receiver.answerWith(() => ({ status: 410 }))
    const { id, deliveryId } = await endpointWithTestEvent()
    // Queued behind the first, it is never sent.
    const queued = (await t.request('POST', `/v1/webhooks/${id}/test`, { token })).body.data.id
    const d = await delivery(id, deliveryId)
    assert.equal(d.status, 'failed')
    const endpoint = await t.request('GET', `/v1/webhooks/${id}`, { token })
    assert.equal(endpoint.body.data.enabled, false)
    assert.equal(endpoint.body.data.disabledReason, 'gone')
    assert.equal((await delivery(id, queued)).status, 'failed')

    // Switched on again by its owner, it takes deliveries again.
    receiver.answerWith(() => ({ status: 200 }))
    const on = await t.request('PATCH', `/v1/webhooks/${id}`, { token, body: { enabled: true } })
    assert.equal(on.body.data.disabledReason, null)
    const again = await t.request('POST', `/v1/webhooks/${id}/deliveries/${deliveryId}/retry`, { token })
    assert.equal(again.status, 202)
    assert.equal((await delivery(id, deliveryId)).status, 'succeeded')
  })

  it('switches off an endpoint whose every delivery failed for five days', async () => {
    receiver.answerWith(() => ({ status: 503 }))
    const { id } = await endpointWithTestEvent()
    await t.ctx.webhooks.runOnce()
    const start = clock
    let enabled = true
    while (enabled && clock - start < 6 * 24 * 3600_000) {
      clock += 12 * 3600_000
      await t.request('POST', `/v1/webhooks/${id}/test`, { token })
      await t.ctx.webhooks.runOnce()
      enabled = (await t.request('GET', `/v1/webhooks/${id}`, { token })).body.data.enabled
    }
    const endpoint = await t.request('GET', `/v1/webhooks/${id}`, { token })
    assert.equal(endpoint.body.data.enabled, false)
    assert.equal(endpoint.body.data.disabledReason, 'failing')
    assert.ok(clock - start >= 5 * 24 * 3600_000)
  })
})
