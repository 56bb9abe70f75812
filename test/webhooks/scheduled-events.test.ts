import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { addDays, localDay } from '../../src/analytics/local-day.ts'
import { seedHistory } from '../../src/analytics/seed.ts'
import { accounts } from '../../src/auth/accounts.ts'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import type { AppContext } from '../../src/context.ts'
import { closeContext } from '../../src/app.ts'
import { analyticsUseCases } from '../../src/core/analytics-use-cases.ts'
import { webhookUseCases } from '../../src/core/webhook-use-cases.ts'
import { profileService } from '../../src/profiles/profile-service.ts'
import { slotsRepository } from '../../src/store/slots.ts'
import type { User } from '../../src/store/users.ts'
import { queueDailySummaries } from '../../src/webhooks/daily-summaries.ts'
import { queueScheduleEdges } from '../../src/webhooks/schedule-edges.ts'
import { STORE } from '../helpers/app.ts'
import { type SeparateStore, separateStore } from '../helpers/separate-store.ts'
import { startReceiver } from './receiver.ts'

// issue 45: block.schedule_started / block.schedule_ended when a block's window opens or closes,
// and analytics.daily once a day closes in the owner's zone; each once, even across a restart.
// The passes run on contexts without a server (no timers): the test says when, with `now`.

describe(`events of the clock: scheduled blocks and daily figures (${STORE})`, () => {
  let store: SeparateStore
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let ctx: AppContext

  before(async () => {
    receiver = await startReceiver()
    store = await separateStore(STORE, 'slotline-webhook-clock')
    store.env.WEBHOOK_URL_ALLOW_HOSTS = receiver.hostPort
    ctx = await store.open()
  })
  after(async () => {
    await closeContext(ctx)
    await receiver.close()
    await store.remove()
  })

  /** Restarts: the context closes and a new one opens on the same store. */
  async function restart() {
    await ctx.webhooks.runOnce()
    await closeContext(ctx)
    ctx = await store.open()
  }

  const user = (timezone: string) =>
    accounts.createUser(ctx.db, { email: `u${Math.random().toString(36).slice(2)}@example.test`, password: 'correct horse battery', name: 'U', timezone })

  async function endpoint(owner: User, eventTypes: string[]) {
    const { secret } = await webhookUseCases.create(ctx, ownerPrincipal(owner), { url: receiver.url, eventTypes: eventTypes as never })
    return secret
  }

  /** What arrived since `from`, verified with `secret`. */
  async function arrived(from: number, secret: string) {
    await ctx.webhooks.runOnce()
    return receiver.received.slice(from).map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: any })
  }

  it('reports a block’s start and end once each, in the owner’s zone, across a restart', async () => {
    const owner = await user('America/New_York')
    const secret = await endpoint(owner, ['block.schedule_started', 'block.schedule_ended'])
    const page = await profileService.create(ctx.db, owner.id, `edges${Date.now().toString(36)}`)
    const button = { title: 'Sale', link: 'https://example.com/sale' }
    // 09:00 in New York is 14:00Z in January; the end is written with its offset.
    const window = { hidden: false, startsAt: '2030-01-10T09:00', endsAt: '2030-01-10T18:00:00Z' }
    const [shown, hidden] = await slotsRepository.insertMany(ctx.db, page.id, [
      { type: 'button', data: button, position: 0, visibility: window },
      { type: 'button', data: button, position: 1, visibility: { ...window, hidden: true } },
    ])
    // Someone else's block in the same window: nobody listens to that account.
    const other = await user('UTC')
    await slotsRepository.insertMany(ctx.db, (await profileService.create(ctx.db, other.id, `other${Date.now().toString(36)}`)).id, [
      { type: 'button', data: button, position: 0, visibility: window },
    ])
    const at = (hhmm: string) => Date.parse(`2030-01-10T${hhmm}:00Z`)
    const seen = receiver.received.length

    await queueScheduleEdges(ctx, at('12:00'))
    assert.equal(await queueScheduleEdges(ctx, at('13:59')), 0, 'before the start')
    assert.equal(await queueScheduleEdges(ctx, at('14:00')), 1, 'the start, at its moment')
    assert.equal(await queueScheduleEdges(ctx, at('14:30')), 0, 'once')
    await restart()
    assert.equal(await queueScheduleEdges(ctx, at('14:45')), 0, 'once, after a restart too')
    assert.equal(await queueScheduleEdges(ctx, at('19:00')), 1, 'the end')
    assert.equal(await queueScheduleEdges(ctx, at('12:00')), 0, 'a clock gone back reports nothing again')

    const got = await arrived(seen, secret)
    assert.deepEqual(
      got.map((e) => [e.type, e.data.slotId, e.data.at]),
      [
        ['block.schedule_started', shown.id, '2030-01-10T14:00:00.000Z'],
        ['block.schedule_ended', shown.id, '2030-01-10T18:00:00.000Z'],
      ],
    )
    assert.deepEqual(got[0].data, { profileId: page.id, login: page.login, slotId: shown.id, type: 'button', at: '2030-01-10T14:00:00.000Z' })
    assert.ok(!got.some((e) => e.data.slotId === hidden.id), 'a hidden block neither starts nor ends')
  })

  it('sends each page’s figures once its day has closed in the owner’s zone, once a day', async () => {
    const owner = await user('Asia/Tokyo')
    const secret = await endpoint(owner, ['analytics.daily'])
    const page = await profileService.create(ctx.db, owner.id, `daily${Date.now().toString(36)}`)
    await slotsRepository.insertMany(ctx.db, page.id, [{ type: 'button', data: { title: 'Shop', link: 'https://example.com/shop' }, position: 0 }])
    await seedHistory(ctx.db, page, { days: 3, events: 300, clicks: 40, timezone: owner.timezone, sources: 4, countries: 2 })
    const now = new Date()
    const yesterday = addDays(localDay(now, owner.timezone), -1)
    const seen = receiver.received.length

    assert.equal(await queueDailySummaries(ctx, now), 1)
    assert.equal(await queueDailySummaries(ctx, now), 0, 'once a day')
    await restart()
    assert.equal(await queueDailySummaries(ctx, now), 0, 'once a day, after a restart too')

    const [daily] = await arrived(seen, secret)
    assert.equal(daily.type, 'analytics.daily')
    // The same figures the page's analytics answer for that day.
    const { data: report } = await analyticsUseCases.forPage(ctx, ownerPrincipal(owner), page.id, { dateFrom: yesterday, dateTo: yesterday })
    assert.ok(report.totals.views > 0, 'the seeded day has views')
    assert.deepEqual(daily.data, {
      profileId: page.id,
      login: page.login,
      date: yesterday,
      timezone: 'Asia/Tokyo',
      views: report.totals.views,
      uniqueVisitors: report.totals.uniqueVisitors,
      clicks: report.totals.clicks,
      blocks: report.blocks.map((b) => ({ slotId: b.slotId, type: b.type, title: b.title, clicks: b.clicks })),
      topSources: report.sources.map((s) => ({ source: s.source, views: s.views })),
    })

    // The next day closes: its figures follow, and only they.
    const tomorrow = new Date(now.getTime() + 24 * 3600_000)
    const before = receiver.received.length
    assert.equal(await queueDailySummaries(ctx, tomorrow), 1)
    const [next] = await arrived(before, secret)
    assert.equal(next.data.date, addDays(yesterday, 1))
  })
})
