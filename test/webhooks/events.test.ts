import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { slotService } from '../../src/slots/slot-service.ts'
import { formsRepository } from '../../src/store/forms.ts'
import type { User } from '../../src/store/users.ts'
import { makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { startReceiver } from './receiver.ts'

const fields = [
  { name: 'name', label: 'Your name', type: 'text' as const, required: true },
  { name: 'email', label: 'E-mail', type: 'email' as const, required: true },
]

describe(`webhook events (${STORE})`, () => {
  let t: TestApp
  let user: User
  let token: string
  let receiver: Awaited<ReturnType<typeof startReceiver>>

  before(async () => {
    receiver = await startReceiver()
    t = await startApp({ WEBHOOK_URL_ALLOW_HOSTS: receiver.hostPort })
    user = await makeUser(t)
    token = await makeToken(t, user)
  })
  after(async () => {
    await t.close()
    await receiver.close()
  })

  async function endpoint(eventTypes: string[], profileIds?: number[]) {
    const res = await t.request('POST', '/v1/webhooks', { token, body: { url: receiver.url, eventTypes, profileIds } })
    assert.equal(res.status, 201, res.text)
    return { id: res.body.data.id as number, secret: res.body.meta.secret as string }
  }

  const verified = (secret: string, n: number) => {
    const got = receiver.received[n]
    return new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as { type: string; timestamp: string; data: any }
  }

  it('sends a lead from a public page, without the visitor waiting for the receiver', async () => {
    const profile = await makeProfile(t, user)
    const form = await formsRepository.insert(t.ctx.db, { userId: user.id, title: 'Commissions', description: '', fields, submitLabel: 'Send' })
    const [slot] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'form', data: { formId: form.id, view: 'inline' } }])
    const { id, secret } = await endpoint(['form.submitted'], [profile.id])
    const n = receiver.received.length
    // The receiver never answers: the visitor's answer must not wait for it.
    receiver.answerWith(() => 'hang')
    const res = await fetch(`${t.url}/-/forms/${slot.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _e: '10000', _hp: '', name: 'Ada', email: 'ada@example.test' }).toString(),
    })
    assert.equal(res.status, 200)
    const answeredAt = Date.now()
    await receiver.waitFor(n + 1)
    // The receiver never answers: had the visitor waited for the delivery, the answer would have
    // come only once the sender gave up on it.
    assert.ok(answeredAt < receiver.received[n].at + t.ctx.config.webhookTimeoutMs, 'the visitor was answered while the delivery hung')
    const body = verified(secret, n)
    assert.equal(body.type, 'form.submitted')
    assert.equal(body.data.login, profile.login)
    assert.equal(body.data.slotId, slot.id)
    assert.equal(body.data.form.title, 'Commissions')
    assert.deepEqual(body.data.submission.data, { name: 'Ada', email: 'ada@example.test' })
    // Its retries of the hung delivery would reach the next test's receiver.
    assert.equal((await t.request('DELETE', `/v1/webhooks/${id}`, { token })).status, 204)
    receiver.answerWith(() => ({ status: 200 }))
  })

  it('describes a page change: blocks added, edited and removed, page fields; and a page’s publishing', async () => {
    const all = await endpoint(['page.updated', 'page.published', 'page.unpublished'])
    let seen = receiver.received.length
    /** The next `k` deliveries, each with the endpoint whose secret verifies it. */
    const next = async (k: number) => {
      await receiver.waitFor(seen + k)
      await t.ctx.webhooks.runOnce()
      const got = receiver.received.slice(seen, seen + k).map((r) => verifiedBy(r, { all: all.secret, onlyThis: onlyThis?.secret }))
      seen += k
      return got
    }
    let onlyThis: { secret: string } | undefined

    const made = await t.request('POST', '/v1/profiles', { token, body: { login: `wh_${Date.now().toString(36)}` } })
    assert.equal(made.status, 201, made.text)
    const profileId = made.body.data.id
    const [published] = await next(1)
    assert.equal(published.type, 'page.published')
    assert.equal(published.data.profileId, profileId)

    const other = await makeProfile(t, user)
    onlyThis = await endpoint(['page.updated'], [profileId])
    const make = await t.request('POST', `/v1/profiles/${profileId}/slots/batch`, {
      token,
      body: {
        slots: [
          { type: 'text', data: { title: 'One' } },
          { type: 'text', data: { title: 'Two' } },
        ],
      },
    })
    assert.equal(make.status, 201, make.text)
    const [a, b] = make.body.data.map((s: { id: number }) => s.id)
    const added = await next(2)
    assert.deepEqual(added.map((d) => d.by).sort(), ['all', 'onlyThis'])
    for (const d of added) assert.deepEqual(d.data.changes, { slotsAdded: [a, b], slotsRemoved: [], slotsEdited: [], reordered: false, profileFields: [] })

    await t.request('PATCH', `/v1/profiles/${profileId}/slots/${a}`, { token, body: { data: { title: 'One, again' } } })
    for (const d of await next(2)) assert.deepEqual(d.data.changes.slotsEdited, [a])

    await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: 'Mara Lind' } })
    for (const d of await next(2)) assert.deepEqual(d.data.changes.profileFields, ['title'])

    // A dry run sends nothing; a page the second endpoint does not take goes to the first alone.
    await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: 'Dry' }, headers: { precognition: 'true' } })
    await t.request('PATCH', `/v1/profiles/${other.id}`, { token, body: { title: 'Elsewhere' } })
    const [elsewhere] = await next(1)
    assert.equal(elsewhere.by, 'all')
    assert.equal(elsewhere.data.profileId, other.id)
    assert.equal(receiver.received.length, seen)

    await t.request('DELETE', `/v1/profiles/${profileId}/slots/${b}`, { token })
    for (const d of await next(2)) assert.deepEqual(d.data.changes.slotsRemoved, [b])
  })
})

/** The delivery verified with whichever of the secrets signed it. */
function verifiedBy(
  got: { body: string; headers: Record<string, unknown> },
  secrets: Record<string, string | undefined>,
): { by: string; type: string; data: any } {
  for (const [by, secret] of Object.entries(secrets)) {
    if (!secret) continue
    try {
      return { by, ...(new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as { type: string; data: any }) }
    } catch {}
  }
  throw new Error('no secret verifies this delivery')
}
