import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { HyperLogLog } from '../../src/analytics/hll.ts'
import { closeContext } from '../../src/app.ts'
import { accounts } from '../../src/auth/accounts.ts'
import type { AppContext } from '../../src/context.ts'
import { profileService } from '../../src/profiles/profile-service.ts'
import { analyticsRepository } from '../../src/store/analytics.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { STORE } from '../helpers/app.ts'
import { startService } from '../helpers/process.ts'
import { type SeparateStore, separateStore, serviceStore } from '../helpers/separate-store.ts'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

async function pageOf(ctx: AppContext, timezone = 'UTC') {
  const user = await accounts.createUser(ctx.db, {
    email: `intake.${randomBytes(4).toString('hex')}@example.test`,
    password: 'correct horse battery',
    name: 'Intake',
    timezone,
  })
  return profileService.create(ctx.db, user.id, `in_${randomBytes(5).toString('hex')}`)
}

const ALL = { from: '2000-01-01', to: '2100-01-01' }

async function totals(ctx: AppContext, profileId: number) {
  const days = await analyticsRepository.readDailyCounts(ctx.db, [profileId], ALL.from, ALL.to)
  const sketches = await analyticsRepository.readDailySketches(ctx.db, [profileId], [ALL])
  const slots = await analyticsRepository.slotClickTotals(ctx.db, profileId, ALL)
  const socials = await analyticsRepository.socialClickTotals(ctx.db, profileId, ALL)
  const visitors = new HyperLogLog()
  for (const d of sketches) visitors.mergeBytes(d.visitors)
  return {
    views: days.reduce((n, d) => n + d.views, 0),
    clicks: days.reduce((n, d) => n + d.clicks, 0),
    visitors: visitors.estimate(),
    slotClicks: Object.fromEntries(slots.map((s) => [s.key, s.clicks])),
    socialClicks: Object.fromEntries(socials.map((s) => [s.key, s.clicks])),
  }
}

const at = new Date('2026-06-10T12:00:00Z')

describe(`analytics intake (${STORE})`, () => {
  let store: SeparateStore
  let ctx: AppContext
  before(async () => {
    // A store that outlives one context, so a second context can read what the first one wrote on close.
    store = await separateStore(STORE, 'slotline-intake')
    ctx = await store.open()
  })
  after(async () => {
    await closeContext(ctx)
    await store.remove()
  })

  it('is one instance per context', () => {
    assert.equal(ctx.intake, ctx.intake)
  })

  it('writes every recorded event exactly once while recording goes on during flushes', async () => {
    const page = await pageOf(ctx)
    const intake = ctx.intake
    const flushes: Promise<void>[] = []
    for (let i = 0; i < 5000; i++) {
      assert.equal(intake.view({ profileId: page.id, ip: `10.1.${i >> 8}.${i & 255}`, userAgent: BROWSER, at }), true)
      if (i % 700 === 0) flushes.push(intake.flush())
    }
    for (let i = 0; i < 120; i++) intake.click({ profileId: page.id, ip: `10.1.0.${i}`, userAgent: BROWSER, slotId: 7, socialIndex: null, at })
    for (let i = 0; i < 30; i++) intake.click({ profileId: page.id, ip: `10.1.0.${i}`, userAgent: BROWSER, slotId: null, socialIndex: 2, at })
    for (let i = 0; i < 5; i++) intake.click({ profileId: page.id, ip: `10.1.0.${i}`, userAgent: BROWSER, slotId: null, socialIndex: null, at })
    await Promise.all(flushes)
    await intake.flush()
    const t = await totals(ctx, page.id)
    assert.equal(t.views, 5000)
    assert.equal(t.clicks, 155)
    assert.deepEqual(t.slotClicks, { 7: 120 })
    assert.deepEqual(t.socialClicks, { 2: 30 })
    assert.ok(Math.abs(t.visitors - 5000) <= 100, `visitors ${t.visitors}`)
  })

  it('counts a returning visitor once per day and never stores an address', async () => {
    const page = await pageOf(ctx)
    const intake = ctx.intake
    for (let i = 0; i < 10; i++) intake.view({ profileId: page.id, ip: '203.0.113.9', userAgent: BROWSER, at })
    await intake.flush()
    const t = await totals(ctx, page.id)
    assert.equal(t.views, 10)
    assert.equal(t.visitors, 1)
    const [row] = await analyticsRepository.readDailySketches(ctx.db, [page.id], [ALL])
    assert.equal(Buffer.from(row!.visitors).includes('203.0.113.9'), false)
  })

  it('does not count crawlers, scripted clients, prefetches or an empty user agent', async () => {
    const page = await pageOf(ctx)
    const intake = ctx.intake
    const base = { profileId: page.id, ip: '198.51.100.1', at }
    assert.equal(intake.view({ ...base, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }), false)
    assert.equal(intake.view({ ...base, userAgent: 'curl/8.4.0' }), false)
    assert.equal(intake.view({ ...base, userAgent: undefined }), false)
    assert.equal(intake.view({ ...base, userAgent: BROWSER, purpose: 'prefetch' }), false)
    assert.equal(intake.click({ ...base, userAgent: 'facebookexternalhit/1.1', slotId: 1, socialIndex: null }), false)
    assert.equal(intake.view({ ...base, userAgent: BROWSER }), true)
    await intake.flush()
    const t = await totals(ctx, page.id)
    assert.equal(t.views, 1)
    assert.equal(t.clicks, 0)
  })

  it('buckets an event at 23:30 UTC on the next day for a Europe/Berlin owner', async () => {
    const page = await pageOf(ctx, 'Europe/Berlin')
    const intake = ctx.intake
    intake.view({ profileId: page.id, ip: '192.0.2.1', userAgent: BROWSER, at: new Date('2026-02-28T23:30:00Z') })
    await intake.flush()
    const rows = await analyticsRepository.readDailyCounts(ctx.db, [page.id], ALL.from, ALL.to)
    assert.deepEqual(
      rows.map((r) => [r.day, r.views, r.uniques]),
      [['2026-03-01', 1, 1]],
    )
  })

  it("drops the events of a page deleted before the flush and keeps every other page's", async () => {
    const kept = await pageOf(ctx)
    const gone = await pageOf(ctx)
    const intake = ctx.intake
    intake.view({ profileId: kept.id, ip: '192.0.2.2', userAgent: BROWSER, at })
    intake.view({ profileId: gone.id, ip: '192.0.2.2', userAgent: BROWSER, at })
    await profilesRepository.remove(ctx.db, gone.id)
    await intake.flush()
    assert.equal((await totals(ctx, kept.id)).views, 1)
    assert.equal((await totals(ctx, gone.id)).views, 0)
  })

  it('keeps the events of a failed write, in order with newer ones, and writes them all once the store is back', async () => {
    const page = await pageOf(ctx)
    const intake = ctx.intake
    for (let i = 0; i < 1500; i++) intake.view({ profileId: page.id, ip: `10.3.${i >> 8}.${i & 255}`, userAgent: BROWSER, at })
    for (let i = 0; i < 40; i++) intake.click({ profileId: page.id, ip: `10.3.0.${i}`, userAgent: BROWSER, slotId: 4, socialIndex: null, at })
    // The rollup table gone for a moment: the write fails and its events wait for the next one.
    await sql`ALTER TABLE analytics_daily RENAME TO analytics_daily_away`.execute(ctx.db)
    try {
      await assert.rejects(intake.flush())
      for (let i = 0; i < 700; i++) intake.view({ profileId: page.id, ip: `10.4.${i >> 8}.${i & 255}`, userAgent: BROWSER, at })
      intake.click({ profileId: page.id, ip: '10.4.0.1', userAgent: BROWSER, slotId: null, socialIndex: 1, at })
      await assert.rejects(intake.flush())
    } finally {
      await sql`ALTER TABLE analytics_daily_away RENAME TO analytics_daily`.execute(ctx.db)
    }
    await intake.flush()
    const t = await totals(ctx, page.id)
    assert.equal(t.views, 2200)
    assert.equal(t.clicks, 41)
    assert.deepEqual(t.slotClicks, { 4: 40 })
    assert.deepEqual(t.socialClicks, { 1: 1 })
    // 2,200 distinct addresses: the sketch saw every key, none twice or lost.
    assert.ok(Math.abs(t.visitors - 2200) / 2200 < 0.035, `visitors ${t.visitors}`)
  })

  it('writes what is still buffered when the context closes, so a restart finds every event', async () => {
    const page = await pageOf(ctx)
    const intake = ctx.intake
    for (let i = 0; i < 2500; i++) intake.view({ profileId: page.id, ip: `10.2.${i >> 8}.${i & 255}`, userAgent: BROWSER, at })
    for (let i = 0; i < 75; i++) intake.click({ profileId: page.id, ip: `10.2.0.${i}`, userAgent: BROWSER, slotId: 3, socialIndex: null, at })
    // No flush: closing the context must write the rest before the database closes.
    await closeContext(ctx)
    assert.equal(intake.view({ profileId: page.id, ip: '10.9.9.9', userAgent: BROWSER, at }), false, 'a closed intake refuses events')

    ctx = await store.open()
    const t = await totals(ctx, page.id)
    assert.equal(t.views, 2500)
    assert.equal(t.clicks, 75)
    assert.deepEqual(t.slotClicks, { 3: 75 })
  })
})

describe(`analytics across a SIGTERM of the service (${STORE})`, () => {
  it('stores every view and click the pages answered before the signal', async () => {
    const outside = await serviceStore(STORE, 'slotline-sigterm')
    const { env, open } = outside
    try {
      let ctx = await open()
      const page = await pageOf(ctx)
      await profilesRepository.update(ctx.db, page.id, { socials: [{ link: 'https://instagram.com/sigterm', order: 0 }] })
      await closeContext(ctx)

      const svc = await startService(env)
      const base = `http://127.0.0.1:${env.PORT}`
      const headers = { 'user-agent': BROWSER }
      const answered = { views: 0, clicks: 0 }
      for (let round = 0; round < 20; round++) {
        const batch = await Promise.all([
          ...Array.from({ length: 10 }, () => fetch(`${base}/${page.login}`, { headers }).then((r) => r.status)),
          ...Array.from({ length: 5 }, () => fetch(`${base}/-/go/${page.id}/s0`, { headers, redirect: 'manual' }).then((r) => r.status)),
        ])
        answered.views += batch.slice(0, 10).filter((s) => s === 200).length
        answered.clicks += batch.slice(10).filter((s) => s === 302).length
      }
      assert.deepEqual(answered, { views: 200, clicks: 100 })
      // Straight away, well inside the one-second flush interval: the events are still buffered.
      svc.child.kill('SIGTERM')
      assert.equal(await svc.exited, 0)

      ctx = await open()
      const t = await totals(ctx, page.id)
      await closeContext(ctx)
      assert.equal(t.views, 200)
      assert.equal(t.clicks, 100)
      assert.deepEqual(t.socialClicks, { 0: 100 })
    } finally {
      await outside.remove()
    }
  })
})
