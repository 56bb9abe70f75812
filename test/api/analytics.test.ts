import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { ClickInput } from '../../src/analytics/intake.ts'
import { addDays, localDay } from '../../src/analytics/local-day.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeAccount, makeProfile, makeToken, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15'
const today = localDay(new Date(), 'UTC')
/** Noon UTC `n` days before today. */
const noon = (daysAgo: number) => new Date(`${addDays(today, -daysAgo)}T12:00:00Z`)
/**
 * HyperLogLog estimates: within 3.5 % (or 2 for small counts) of the truth. Precision 14 has a
 * standard error of 0.81 %, and the visitor hashes change with the random secret and the date,
 * so 2 % (2.5 σ) failed a run now and then; 3.5 % is over 4 σ.
 */
const near = (n: number, truth: number) => assert.ok(Math.abs(n - truth) <= Math.max(2, truth * 0.035), `${n} is not near ${truth}`)
const ip = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`

async function addSlots(t: TestApp, profileId: number, slots: Array<{ type: string; data: object }>): Promise<number[]> {
  const now = new Date().toISOString()
  const rows = await t.ctx.db
    .insertInto('slots')
    .values(slots.map((s, i) => ({ profile_id: profileId, type: s.type, position: i, data: JSON.stringify(s.data), created_at: now, updated_at: now })))
    .returning('id')
    .execute()
  return rows.map((r) => r.id)
}

const button = (title: string) => ({
  type: 'button',
  data: { title, subtitle: '', link: `https://${title.toLowerCase()}.example`, style: 'primary', customize: null },
})

/** Records `n` views (or clicks) by distinct visitors starting at `from`, on the given day. */
function views(t: TestApp, profileId: number, n: number, at: Date, from = 0) {
  const intake = t.ctx.intake
  for (let i = 0; i < n; i++) assert.equal(intake.view({ profileId, ip: ip(from + i), userAgent: BROWSER, at }), true)
}
function clicks(t: TestApp, profileId: number, n: number, at: Date, target: Pick<ClickInput, 'slotId' | 'socialIndex'>, from = 0) {
  const intake = t.ctx.intake
  for (let i = 0; i < n; i++) assert.equal(intake.click({ profileId, ip: ip(from + i), userAgent: BROWSER, at, ...target }), true)
}

describe(`GET /profiles/{profileKey}/analytics (${STORE})`, () => {
  let t: TestApp
  let token: string
  let login: string
  let profileId: number
  let slotIds: number[]
  const period = `dateFrom=${addDays(today, -13)}&dateTo=${addDays(today, -7)}`
  const previous = `dateFrom=${addDays(today, -20)}&dateTo=${addDays(today, -14)}`

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t, { timezone: 'UTC' })
    token = account.token
    const profile = await makeProfile(t, account.user)
    await profilesRepository.update(t.ctx.db, profile.id, {
      socials: [
        { link: 'https://instagram.com/jane', order: 0 },
        { link: 'https://github.com/jane', order: 1 },
      ],
    })
    login = profile.login
    profileId = profile.id
    slotIds = await addSlots(t, profileId, [
      button('Book'),
      button('Shop'),
      { type: 'divider', data: {} },
      button('Newsletter'),
      {
        type: 'music',
        data: {
          mode: 'manual',
          style: 'tapter',
          album: 'Blue',
          artist: 'Jane',
          thumbnail: '',
          showCover: true,
          links: [{ link: 'https://open.spotify.com/album/1', order: 0 }],
        },
      },
    ])
    // The current period (days 13..7 ago): 1,400 views, best on day 12 ago (500).
    for (let d = 7; d <= 13; d++) views(t, profileId, d === 10 ? 400 : 100, noon(d), 0)
    views(t, profileId, 400, noon(12), 0)
    clicks(t, profileId, 60, noon(9), { slotId: slotIds[0]!, socialIndex: null })
    clicks(t, profileId, 20, noon(9), { slotId: slotIds[1]!, socialIndex: null }, 0)
    clicks(t, profileId, 20, noon(8), { slotId: slotIds[1]!, socialIndex: null }, 0)
    clicks(t, profileId, 9, noon(8), { slotId: null, socialIndex: 1 })
    clicks(t, profileId, 1, noon(8), { slotId: null, socialIndex: null })
    // The previous period (days 20..14 ago): 700 views, 35 clicks.
    for (let d = 14; d <= 20; d++) views(t, profileId, 100, noon(d), 1000)
    clicks(t, profileId, 30, noon(15), { slotId: slotIds[0]!, socialIndex: null }, 1000)
    clicks(t, profileId, 5, noon(15), { slotId: null, socialIndex: 0 }, 1000)
    await t.ctx.intake.flush()
  })
  after(() => t.close())

  const get = (query: string, key = login, as = token) => t.request('GET', `/v1/profiles/${key}/analytics?${query}`, { token: as })

  it('counts every view and click exactly, per block and per social link', async () => {
    const res = await get(period)
    assert.equal(res.status, 200, res.text)
    const { data } = res.body
    assert.deepEqual(data.period, { from: addDays(today, -13), to: addDays(today, -7), timezone: 'UTC', bucket: 'day' })
    assert.equal(data.profileId, profileId)
    assert.equal(data.login, login)
    assert.equal(data.totals.views, 1400)
    assert.equal(data.totals.clicks, 110)
    assert.equal(data.totals.ctr, Math.round((110 / 1400) * 10_000) / 10_000)
    assert.deepEqual(
      data.blocks.map((b: any) => [b.slotId, b.type, b.title, b.clicks]),
      [
        [slotIds[0], 'button', 'Book', 60],
        [slotIds[1], 'button', 'Shop', 40],
        [slotIds[2], 'divider', 'Divider', 0],
        [slotIds[3], 'button', 'Newsletter', 0],
        [slotIds[4], 'music', 'Jane – Blue', 0],
      ],
    )
    assert.deepEqual(
      data.socials.map((s: any) => [s.order, s.link, s.icon, s.clicks]),
      [
        [0, 'https://instagram.com/jane', 'instagram', 0],
        [1, 'https://github.com/jane', 'github', 9],
      ],
    )
  })

  it('counts unique visitors and unique clicks approximately, a visitor once per day', async () => {
    const { data } = (await get(period)).body
    // Visitors 0..99 on five days, 0..399 on two days (the same keys, rotated daily): 5 × 100 + 2 × 400 = 1300.
    near(data.totals.uniqueVisitors, 1300)
    // "Shop" was clicked by the same 20 people on two days: 40 visitor keys.
    near(data.blocks[1].uniqueClicks, 40)
    near(data.blocks[0].uniqueClicks, 60)
    assert.ok(data.blocks[0].uniqueClicks <= data.blocks[0].clicks)
  })

  it('reports the previous period of equal length beside this one', async () => {
    const { data } = (await get(period)).body
    const { uniqueVisitors, ...counts } = data.previous
    assert.deepEqual(counts, { from: addDays(today, -20), to: addDays(today, -14), views: 700, clicks: 35, ctr: 0.05 })
    near(uniqueVisitors, 700)
    assert.deepEqual(
      data.blocks.map((b: any) => b.previousClicks),
      [30, 0, 0, 0, 0],
    )
    assert.deepEqual(
      data.socials.map((s: any) => s.previousClicks),
      [5, 0],
    )
    const same = (await get(previous)).body.data
    assert.equal(same.totals.views, data.previous.views)
    assert.equal(same.totals.clicks, data.previous.clicks)
  })

  it('leaves the previous period out with compare=false', async () => {
    const { data } = (await get(`${period}&compare=false`)).body
    assert.equal(data.previous, null)
    assert.ok(data.blocks.every((b: any) => b.previousClicks === null))
    assert.ok(data.socials.every((s: any) => s.previousClicks === null))
    assert.equal(data.totals.views, 1400)
  })

  it('adds a timeline per day, week or month whose buckets sum to the totals', async () => {
    const byDay = (await get(`${period}&include=timeline`)).body.data
    assert.equal(byDay.timeline.length, 7)
    assert.deepEqual(
      byDay.timeline.map((p: any) => [p.date, p.views, p.clicks]),
      [
        [addDays(today, -13), 100, 0],
        [addDays(today, -12), 500, 0],
        [addDays(today, -11), 100, 0],
        [addDays(today, -10), 400, 0],
        [addDays(today, -9), 100, 80],
        [addDays(today, -8), 100, 30],
        [addDays(today, -7), 100, 0],
      ],
    )
    // The 100 visitors of day 12 are among its 400.
    near(byDay.timeline[1].uniqueVisitors, 400)
    for (const bucket of ['week', 'month']) {
      const { data } = (await get(`${period}&include=timeline&bucket=${bucket}`)).body
      assert.equal(data.period.bucket, bucket)
      assert.equal(data.timeline[0].date, addDays(today, -13), 'the first bucket starts with the period')
      assert.ok(data.timeline.length <= 2)
      assert.equal(
        data.timeline.reduce((n: number, p: any) => n + p.views, 0),
        1400,
      )
      assert.equal(
        data.timeline.reduce((n: number, p: any) => n + p.clicks, 0),
        110,
      )
    }
    assert.equal((await get(period)).body.data.timeline, undefined, 'no timeline unless asked for')
  })

  it('names the trend, the top block, the blocks never clicked and the best day in insights', async () => {
    const { insights } = (await get(period)).body.data
    const kinds = insights.map((i: any) => i.kind)
    assert.deepEqual(kinds, ['views_up', 'ctr_up', 'top_block', 'blocks_never_clicked', 'best_day'])
    const text = (kind: string) => insights.find((i: any) => i.kind === kind).message
    assert.match(text('views_up'), /rose 100% to 1,400 .*previous 7 days \(700\)/)
    assert.match(text('ctr_up'), /from 5\.0% to 7\.9%/)
    assert.match(text('top_block'), /"Book".*60 clicks.*60%/)
    // The divider cannot be clicked, so it is not blamed.
    assert.match(text('blocks_never_clicked'), /^2 blocks .*"Newsletter", "Jane – Blue"/)
    assert.doesNotMatch(text('blocks_never_clicked'), /Divider/)
    assert.match(text('best_day'), new RegExp(`${Number(addDays(today, -12).slice(8))} .*500 views`))
  })

  it('says when there were no views, and names no trend against an empty period', async () => {
    const quiet = (await get(`dateFrom=${addDays(today, -40)}&dateTo=${addDays(today, -30)}`)).body.data
    assert.deepEqual(
      quiet.insights.map((i: any) => i.kind),
      ['no_views'],
    )
    // The period before `previous` is empty: views are new, a CTR change cannot be computed.
    const kinds = (await get(previous)).body.data.insights.map((i: any) => i.kind)
    assert.ok(kinds.includes('views_up'))
    assert.ok(!kinds.some((k: string) => k.startsWith('ctr_')))
  })

  it('answers presets in the owner time zone with meta as the spec lists it', async () => {
    const res = await get('period=last90')
    assert.equal(res.status, 200)
    assert.deepEqual(res.body.data.period, { from: addDays(today, -89), to: today, timezone: 'UTC', bucket: 'day' })
    assert.equal(res.body.data.totals.views, 2100)
    const { meta } = res.body
    assert.deepEqual(Object.keys(meta).sort(), ['cacheSeconds', 'dataStartsAt', 'generatedAt', 'retentionDays', 'uniquesAreApproximate'])
    assert.equal(meta.cacheSeconds, 60)
    assert.equal(meta.retentionDays, 365)
    assert.equal(meta.uniquesAreApproximate, true)
    assert.equal(meta.dataStartsAt, addDays(today, -20))
    assert.ok(!Number.isNaN(Date.parse(meta.generatedAt)))
    assert.match(String(res.headers['cache-control']), /private, max-age=60/)
    for (const p of ['today', 'yesterday', 'last7', 'last28', 'thisMonth', 'lastMonth']) {
      assert.equal((await get(`period=${p}`)).status, 200, p)
    }
  })

  it('reuses an answer within cacheSeconds but shows new visits recorded by this instance', async () => {
    const first = (await get('period=today')).body
    const again = (await get('period=today')).body
    assert.equal(again.meta.generatedAt, first.meta.generatedAt)
    views(t, profileId, 3, new Date(), 50_000)
    await t.ctx.intake.flush()
    const fresh = (await get('period=today')).body
    assert.equal(fresh.data.totals.views, first.data.totals.views + 3)
  })

  it('gives the same uniques whether whole months come from month sketches or from their days', async () => {
    const owner = (await profilesRepository.findById(t.ctx.db, profileId))!
    const page = await makeProfile(t, { id: owner.userId } as Parameters<typeof makeProfile>[1])
    for (let d = 0; d < 100; d++) views(t, page.id, 40, noon(d), d * 7)
    await t.ctx.intake.flush()
    const ask = async (query: string) => {
      const res = await t.request('GET', `/v1/profiles/${page.id}/analytics?period=last90&${query}`, { token })
      assert.equal(res.status, 200, res.text)
      return res.body.data
    }
    const byDay = await ask('include=timeline')
    const byWeek = await ask('include=timeline&bucket=week')
    const byMonth = await ask('include=timeline&bucket=month')
    assert.equal(byDay.totals.views, 3600)
    // A union of sketches is exact (register maxima), so both routes give the very same estimate.
    assert.equal(byWeek.totals.uniqueVisitors, byDay.totals.uniqueVisitors)
    assert.equal(byMonth.totals.uniqueVisitors, byDay.totals.uniqueVisitors)
    near(byDay.totals.uniqueVisitors, 3600)
    assert.deepEqual(
      byMonth.timeline.map((p: any) => p.views),
      byMonth.timeline.map((p: any) => 40 * byDay.timeline.filter((d: any) => d.date.slice(0, 7) === p.date.slice(0, 7)).length),
    )
    for (const point of byMonth.timeline) near(point.uniqueVisitors, point.views)
    near(byDay.previous.uniqueVisitors, 400)
  })

  it('refuses a period over 366 days, a start after the end and bad parameters with 422', async () => {
    const long = await get(`dateFrom=${addDays(today, -366)}&dateTo=${today}`)
    assert.equal(long.status, 422)
    assert.equal(long.body.code, 'validation_failed')
    assert.deepEqual(Object.keys(long.body.errors), ['dateTo'])
    assert.equal((await get(`dateFrom=${addDays(today, -365)}&dateTo=${today}`)).status, 200, '366 days are allowed')
    const reversed = await get(`dateFrom=${today}&dateTo=${addDays(today, -1)}`)
    assert.equal(reversed.status, 422)
    assert.deepEqual(Object.keys(reversed.body.errors), ['dateFrom'])
    assert.equal((await get('period=last7&dateFrom=2026-01-01')).status, 422)
    assert.equal((await get('period=fortnight')).status, 422)
    assert.equal((await get('bucket=hour')).status, 422)
    assert.equal((await get('dateFrom=2026-02-30')).status, 422)
    assert.equal((await get('compare=maybe')).status, 422)
    assert.equal((await get('include=everything')).status, 422)
    assert.equal((await get('colour=blue')).status, 422)
  })

  it("answers 404 for another account's page, by id and by login", async () => {
    const other = await makeAccount(t)
    assert.equal((await get(period, String(profileId), other.token)).status, 404)
    const res = await get(period, login, other.token)
    assert.equal(res.status, 404)
    assert.equal(res.body.code, 'not_found')
    assert.equal((await get(period, 'no.such.page')).status, 404)
  })

  it('answers 401 without a token and serves a read-only token', async () => {
    const res = await t.request('GET', `/v1/profiles/${login}/analytics`)
    assert.equal(res.status, 401)
    const owner = await profilesRepository.findById(t.ctx.db, profileId)
    const user = { id: owner!.userId } as Parameters<typeof makeToken>[1]
    const readOnly = await makeToken(t, user, ['profile:read'])
    assert.equal((await get(period, login, readOnly)).status, 200)
  })
})

describe(`GET /profiles/{profileKey}/analytics for an owner in Europe/Berlin (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('counts a view at 23:30 UTC on the next day', async () => {
    const { user, token } = await makeAccount(t, { timezone: 'Europe/Berlin' })
    const page = await makeProfile(t, user)
    const day = addDays(today, -5)
    views(t, page.id, 1, new Date(`${day}T23:30:00Z`))
    views(t, page.id, 2, new Date(`${day}T21:30:00Z`), 10)
    await t.ctx.intake.flush()
    const res = await t.request('GET', `/v1/profiles/${page.id}/analytics?dateFrom=${day}&dateTo=${addDays(day, 1)}&include=timeline`, { token })
    assert.equal(res.status, 200, res.text)
    assert.equal(res.body.data.period.timezone, 'Europe/Berlin')
    assert.deepEqual(
      res.body.data.timeline.map((p: any) => [p.date, p.views]),
      [
        [day, 2],
        [addDays(day, 1), 1],
      ],
    )
  })

  it('limits analytics requests per token with 429 and Retry-After', async () => {
    const limited = await startApp({ RATE_LIMIT_ANALYTICS_PER_MINUTE: '2' })
    try {
      const { user, token } = await makeAccount(limited)
      const page = await makeProfile(limited, user)
      for (let i = 0; i < 2; i++) assert.equal((await limited.request('GET', `/v1/profiles/${page.id}/analytics`, { token })).status, 200)
      const res = await limited.request('GET', '/v1/analytics', { token })
      assert.equal(res.status, 429)
      assert.ok(res.headers['retry-after'])
    } finally {
      await limited.close()
    }
  })
})

describe(`GET /analytics (${STORE})`, () => {
  let t: TestApp
  let token: string
  let pages: Array<{ id: number; login: string }>
  const from = addDays(today, -6)

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t, { timezone: 'UTC' })
    token = account.token
    pages = [await makeProfile(t, account.user), await makeProfile(t, account.user), await makeProfile(t, account.user)]
    views(t, pages[0]!.id, 300, noon(3))
    clicks(t, pages[0]!.id, 12, noon(3), { slotId: null, socialIndex: null })
    views(t, pages[1]!.id, 100, noon(2))
    views(t, pages[1]!.id, 50, noon(9))
    const stranger = await makeUser(t)
    views(t, (await makeProfile(t, stranger)).id, 999, noon(3))
    await t.ctx.intake.flush()
  })
  after(() => t.close())

  it('lists every page of the account with totals and the previous period', async () => {
    const res = await t.request('GET', `/v1/analytics?dateFrom=${from}&dateTo=${today}`, { token })
    assert.equal(res.status, 200, res.text)
    const { data, meta } = res.body
    assert.deepEqual(
      data.profiles.map((p: any) => [p.profileId, p.login, p.views, p.clicks]),
      [
        [pages[0]!.id, pages[0]!.login, 300, 12],
        [pages[1]!.id, pages[1]!.login, 100, 0],
        [pages[2]!.id, pages[2]!.login, 0, 0],
      ],
    )
    near(data.profiles[0].uniqueVisitors, 300)
    near(data.profiles[1].uniqueVisitors, 100)
    assert.equal(data.profiles[2].uniqueVisitors, 0)
    assert.equal(data.profiles[0].ctr, 0.04)
    const { uniqueVisitors, ...totals } = data.totals
    assert.deepEqual(totals, { views: 400, clicks: 12, ctr: 0.03 })
    near(uniqueVisitors, 400)
    assert.deepEqual(
      { ...data.previous, uniqueVisitors: 0 },
      { from: addDays(from, -7), to: addDays(from, -1), views: 50, uniqueVisitors: 0, clicks: 0, ctr: 0 },
    )
    near(data.previous.uniqueVisitors, 50)
    assert.equal(meta.uniquesAreApproximate, true)
    assert.equal(meta.dataStartsAt, addDays(today, -9))
  })

  it('adds an account-wide timeline', async () => {
    const { data } = (await t.request('GET', `/v1/analytics?dateFrom=${from}&dateTo=${today}&include=timeline`, { token })).body
    assert.equal(data.timeline.length, 7)
    assert.deepEqual(
      data.timeline.filter((p: any) => p.views > 0).map((p: any) => [p.date, p.views]),
      [
        [addDays(today, -3), 300],
        [addDays(today, -2), 100],
      ],
    )
  })

  it('refuses more than 366 days with 422', async () => {
    const res = await t.request('GET', `/v1/analytics?dateFrom=${addDays(today, -400)}&dateTo=${today}`, { token })
    assert.equal(res.status, 422)
    assert.ok(res.body.errors.dateTo)
  })

  it('answers 401 without a token', async () => {
    assert.equal((await t.request('GET', '/v1/analytics')).status, 401)
  })
})
