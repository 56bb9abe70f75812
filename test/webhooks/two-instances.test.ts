import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { configureMedia } from '../../src/media/media.ts'
import { queueEvent } from '../../src/webhooks/outbox.ts'
import { startFleet } from '../fleet/fleet.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { startReceiver } from './receiver.ts'

// issue 45: "two instances on PostgreSQL send each delivery exactly once (over 1,000 events)".
// On PostgreSQL: the fleet (two instances, one schema); on SQLite: two instances on one file.
// Half the events come through the API of either instance, half in one burst both claim at once.

const EVENTS = 1000

async function twoInstances(env: Record<string, string>): Promise<{ instances: TestApp[]; close: () => Promise<void> }> {
  if (STORE === 'postgres') {
    const fleet = await startFleet(env)
    return { instances: fleet.instances, close: () => fleet.close() }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'slotline-webhooks-two-'))
  const first = await startApp({ ...env, DATA_DIR: dataDir })
  const second = await startApp({ ...env, DATA_DIR: dataDir })
  return {
    instances: [first, second],
    close: async () => {
      await second.close()
      await first.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

describe(`two instances sharing the webhook outbox (${STORE})`, () => {
  let two: Awaited<ReturnType<typeof twoInstances>>
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  /** Connections each instance opened to the receiver. */
  const sentBy = [0, 0]

  before(async () => {
    receiver = await startReceiver()
    two = await twoInstances({ WEBHOOK_URL_ALLOW_HOSTS: receiver.hostPort })
    for (const [i, instance] of two.instances.entries()) {
      const connect = instance.ctx.media.connect
      configureMedia(instance.ctx, {
        connect: (target) => {
          sentBy[i]++
          return connect(target)
        },
      })
    }
  })
  after(async () => {
    await two?.close()
    await receiver.close()
  })

  it(`sends each of ${EVENTS} deliveries exactly once`, async () => {
    const [a, b] = two.instances
    const { user, token } = await makeAccount(a)
    const profile = await makeProfile(a, user)
    const created = await a.request('POST', '/v1/webhooks', { token, body: { url: receiver.url, eventTypes: ['page.updated'] } })
    assert.equal(created.status, 201, created.text)
    const secret: string = created.body.meta.secret

    // Through the API, alternating between the instances, a few at a time.
    let next = 0
    const writer = async () => {
      for (let i = next++; i < EVENTS / 2; i = next++) {
        const res = await two.instances[i % 2].request('PATCH', `/v1/profiles/${profile.id}`, { token, body: { title: `Title ${i}` } })
        assert.equal(res.status, 200, res.text)
      }
    }
    await Promise.all(Array.from({ length: 6 }, writer))

    // A burst: committed at once, due at once, claimed by both.
    await b.ctx.db.transaction().execute(async (trx) => {
      for (let i = EVENTS / 2; i < EVENTS; i++) {
        const data = {
          profileId: profile.id,
          login: profile.login,
          changes: { slotsAdded: [i], slotsRemoved: [], slotsEdited: [], reordered: false, profileFields: [] },
        }
        assert.equal(await queueEvent(trx, { userId: user.id, profileId: profile.id, type: 'page.updated', data }), 1)
      }
    })
    a.ctx.webhooks.nudge()
    b.ctx.webhooks.nudge()

    await receiver.waitFor(EVENTS, 120_000)
    // Whatever either still has under way arrives before the count is taken.
    await Promise.all([a.ctx.webhooks.runOnce(), b.ctx.webhooks.runOnce()])

    const stored = await a.ctx.db.selectFrom('webhook_deliveries').select(['message_id', 'status']).execute()
    assert.equal(stored.length, EVENTS)
    assert.deepEqual(new Set(stored.map((d) => d.status)), new Set(['succeeded']))
    const ids = receiver.received.map((r) => String(r.headers['webhook-id']))
    assert.equal(ids.length, EVENTS, 'no delivery sent twice')
    assert.deepEqual(new Set(ids), new Set(stored.map((d) => d.message_id)))
    for (const r of receiver.received) new Webhook(secret).verify(r.body, r.headers as Record<string, string>)
    assert.ok(sentBy[0] > 0 && sentBy[1] > 0, `both instances sent (${sentBy.join(' and ')})`)
    assert.equal(sentBy[0] + sentBy[1], EVENTS)
  })
})
