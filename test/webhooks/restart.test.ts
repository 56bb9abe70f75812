import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { STORE } from '../helpers/app.ts'
import { startService } from '../helpers/process.ts'
import { type SeparateStore, serviceStore } from '../helpers/separate-store.ts'
import { startReceiver } from './receiver.ts'

// issue 45: "deliveries queued when an instance is killed with SIGKILL are sent once after
// restart". The service runs as its own process (src/main.ts); the receiver holds the first
// deliveries unanswered, so the kill lands with some attempts under way and the rest queued.

const EVENTS = 24

describe(`webhook deliveries across a SIGKILL and a restart (${STORE})`, () => {
  let store: SeparateStore
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let env: Record<string, string>

  before(async () => {
    receiver = await startReceiver()
    store = await serviceStore(STORE, 'slotline-webhook-kill')
    // A short timeout: a claim of the killed process lapses after 2 × 3 s + 5 s.
    env = { ...store.env, WEBHOOK_URL_ALLOW_HOSTS: receiver.hostPort, WEBHOOK_TIMEOUT_SECONDS: '3' }
  })
  after(async () => {
    await receiver.close()
    await store.remove()
  })

  it('sends every queued delivery after the restart, each once, under the webhook-id it had', async () => {
    const first = await startService(env)
    const token = /token:\s+(slp_[0-9A-Za-z]{40})/.exec(first.stdout())?.[1]
    assert.ok(token, first.stdout())
    const base = `http://127.0.0.1:${env.PORT}`
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: res.status, body: (await res.json()) as any }
    }

    const page = await call('POST', '/v1/profiles', { login: 'killed.page' })
    assert.equal(page.status, 201)
    const endpoint = await call('POST', '/v1/webhooks', { url: receiver.url, eventTypes: ['page.updated'] })
    assert.equal(endpoint.status, 201)
    const secret: string = endpoint.body.meta.secret

    receiver.answerWith(() => 'hang')
    for (let i = 0; i < EVENTS; i++) {
      const res = await call('PATCH', `/v1/profiles/${page.body.data.id}`, { title: `Title ${i}` })
      assert.equal(res.status, 200)
    }
    // Attempts are under way (the receiver has them, unanswered) when the process is killed.
    await receiver.waitFor(1)
    first.child.kill('SIGKILL')
    assert.equal(await first.exited, null, 'killed, not exited')

    // The restart begins on a new second: what the killed process signed carries an earlier
    // webhook-timestamp, whenever the receiver reads it; what the new one signs, this or a later one.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)))
    const restartSecond = Math.floor(Date.now() / 1000)
    receiver.answerWith(() => ({ status: 200 }))
    const second = await startService(env)
    try {
      const deliveries = `/v1/webhooks/${endpoint.body.data.id}/deliveries?limit=100`
      let log = await call('GET', deliveries)
      assert.equal(log.body.data.length, EVENTS, 'every event was queued with the change that caused it')
      const ids = new Set<string>(log.body.data.map((d: { messageId: string }) => d.messageId))
      for (let i = 0; i < 300 && log.body.data.some((d: { status: string }) => d.status !== 'succeeded'); i++) {
        await new Promise((r) => setTimeout(r, 100))
        log = await call('GET', deliveries)
      }
      assert.deepEqual(
        log.body.data.map((d: { status: string }) => d.status),
        Array(EVENTS).fill('succeeded'),
      )

      const byKilled = receiver.received.filter((r) => Number(r.headers['webhook-timestamp']) < restartSecond)
      const byRestarted = receiver.received.filter((r) => Number(r.headers['webhook-timestamp']) >= restartSecond)
      assert.ok(byKilled.length > 0 && new Set(byKilled.map((r) => r.headers['webhook-id'])).size < EVENTS, 'the kill left some deliveries unsent')
      const sent = byRestarted.map((r) => String(r.headers['webhook-id']))
      assert.deepEqual(new Set(sent), ids, 'after the restart, every delivery arrived')
      assert.equal(sent.length, ids.size, 'each once after the restart')
      // Those the killed process had sent unanswered come again under the same id: a receiver dedupes them.
      for (const r of byKilled) assert.ok(ids.has(String(r.headers['webhook-id'])))
      for (const r of byRestarted) {
        const body = new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: any }
        assert.equal(body.type, 'page.updated')
        assert.deepEqual(body.data.changes.profileFields, ['title'])
      }
    } finally {
      second.child.kill('SIGTERM')
      await second.exited
    }
  })
})
