import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { addDays, localDay } from '../../src/analytics/local-day.ts'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { slotService } from '../../src/slots/slot-service.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import type { User } from '../../src/store/users.ts'
import { makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { registeredVisitor, type Visitor } from '../helpers/dashboard.ts'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const today = localDay(new Date(), 'UTC')
const noon = (daysAgo: number) => new Date(`${addDays(today, -daysAgo)}T12:00:00Z`)
/** A day as the page writes it: 1 Nov 2026. */
const written = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
const ip = (i: number) => `10.0.${(i >> 8) & 255}.${i & 255}`

/** The text of the page with tags and spaces squeezed, to read figures as a person does. */
const readable = (html: string) =>
  html
    .slice(html.indexOf('<main'))
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')

describe(`dashboard: statistics of a page (${STORE})`, () => {
  let t: TestApp
  let v: Visitor
  let user: User
  let profileId: number
  let login: string

  before(async () => {
    t = await startApp()
    ;({ v, user } = await registeredVisitor(t))
    const profile = await makeProfile(t, user)
    profileId = profile.id
    login = profile.login
    await profilesRepository.update(t.ctx.db, profile.id, { socials: [{ link: 'https://github.com/jane', order: 0 }] })
    const [book, shop] = await slotService.appendManaged(t.ctx.db, profile, [
      { type: 'button', data: { title: 'Book', link: 'https://book.example' } },
      { type: 'button', data: { title: 'Shop', link: 'https://shop.example' } },
    ])
    const intake = t.ctx.intake
    // This week (days 0..6 ago): 20 views by 10 people, 3 clicks on Book, 1 on Shop, 1 on the social link.
    for (let i = 0; i < 20; i++) intake.view({ profileId, ip: ip(i % 10), userAgent: BROWSER, at: noon(1) })
    for (let i = 0; i < 5; i++) intake.view({ profileId, ip: ip(200 + i), userAgent: BOT, at: noon(1) })
    for (let i = 0; i < 3; i++) intake.click({ profileId, ip: ip(i), userAgent: BROWSER, at: noon(1), slotId: book.id, socialIndex: null })
    intake.click({ profileId, ip: ip(5), userAgent: BROWSER, at: noon(2), slotId: shop.id, socialIndex: null })
    intake.click({ profileId, ip: ip(6), userAgent: BROWSER, at: noon(2), slotId: null, socialIndex: 0 })
    // The week before (days 7..13 ago): 10 views, 2 clicks on Book.
    for (let i = 0; i < 10; i++) intake.view({ profileId, ip: ip(100 + i), userAgent: BROWSER, at: noon(9) })
    for (let i = 0; i < 2; i++) intake.click({ profileId, ip: ip(100 + i), userAgent: BROWSER, at: noon(9), slotId: book.id, socialIndex: null })
    await intake.flush()
  })
  after(() => t.close())

  it('shows views, unique visitors, clicks and CTR with the previous period beside each, and says bots are not counted', async () => {
    const res = await v.get(`/my-links/${profileId}/statistics?period=last7`)
    assert.equal(res.status, 200)
    const text = readable(res.text)
    assert.match(text, /Views 20 previous period: 10 \(up 100 %\)/)
    // Estimates (HyperLogLog, keys rotating daily): only their presence is certain.
    assert.match(text, /Unique visitors \d+ previous period: \d+ \(((up|down) \d+ %|no change)\)/)
    assert.match(text, /Clicks 5 previous period: 2 \(up 150 %\)/)
    assert.match(text, /Click-through rate 25 % previous period: 20 % \(up 25 %\)/)
    assert.match(text, /bots, link previews and browser prefetches are not/)
    assert.match(text, /What stands out/)
    assert.match(res.text, new RegExp(`href="/my-links/${profileId}/statistics\\?period=last7" aria-current="page"`))
  })

  it('lists clicks per block and per social link that add up to the total', async () => {
    const res = await v.get(`/my-links/${profileId}/statistics?period=last7`)
    const rows = [
      ...res.text.matchAll(/<tr><th scope="row">([^<]*)<\/th><td data-label="Kind">([^<]*)<\/td><td data-label="Clicks" class="num">(\d+)<\/td>/g),
    ].map((m) => [m[1], m[2], Number(m[3])])
    assert.deepEqual(rows, [
      ['Book', 'Button block', 3],
      ['Shop', 'Button block', 1],
      ['github.com/jane', 'Social link', 1],
    ])
    const total = Number(/All clicks<\/th><td data-label="Clicks" class="num">(\d+)</.exec(res.text)?.[1])
    assert.equal(
      rows.reduce((n, r) => n + (r[2] as number), 0),
      total,
    )
    assert.equal(total, 5)
  })

  it('offers 7, 28 and 90 days and the last twelve months, and shows a chosen month', async () => {
    const res = await v.get(`/my-links/${profileId}/statistics`)
    const text = readable(res.text)
    for (const label of ['Last 7 days', 'Last 28 days', 'Last 90 days']) assert.ok(text.includes(label), label)
    const month = today.slice(0, 7)
    assert.match(res.text, new RegExp(`<option value="${month}">`))
    const shown = await v.get(`/my-links/${profileId}/statistics?month=${month}`)
    assert.match(readable(shown.text), new RegExp(today.endsWith('-01') ? written(today) : `${written(`${month}-01`)} to ${written(today)}`))
    // A month that is not offered falls back to 28 days rather than failing.
    const odd = await v.get(`/my-links/${profileId}/statistics?month=1999-01`)
    assert.match(readable(odd.text), new RegExp(`${written(addDays(today, -27))} to ${written(today)}`))
  })

  it('draws the chart on the server with a table of the same numbers, and exports them as CSV', async () => {
    const res = await v.get(`/my-links/${profileId}/statistics?period=last7`)
    assert.match(res.text, /<svg class="chart"[^>]* role="img"/)
    assert.match(res.text, /<table><thead><tr><th scope="col">Day<\/th>/)
    const file = await v.get(`/my-links/${profileId}/statistics.csv?period=last7`)
    assert.equal(file.status, 200)
    assert.match(file.headers.get('content-type') ?? '', /^text\/csv/)
    assert.match(file.headers.get('content-disposition') ?? '', new RegExp(`${login}-days-${addDays(today, -6)}-${today}\\.csv`))
    const lines = file.text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
    assert.equal(lines[0], 'Day (UTC),Views,Unique visitors,Clicks')
    assert.equal(lines.length, 8)
    assert.equal(
      lines.find((l) => l.startsWith(addDays(today, -1))),
      `${addDays(today, -1)},20,10,3`,
    )
  })

  it('is another account’s page: 404', async () => {
    const stranger = await registeredVisitor(t)
    assert.equal((await stranger.v.get(`/my-links/${profileId}/statistics`)).status, 404)
    assert.equal((await stranger.v.get(`/my-links/${profileId}/statistics.csv`)).status, 404)
    assert.equal((await stranger.v.get(`/my-links/${profileId}/statistics.csv?table=sources`)).status, 404)
  })

  it('answers 404 for a table the page does not have', async () => {
    assert.equal((await v.get(`/my-links/${profileId}/statistics.csv?table=passwords`)).status, 404)
    assert.equal((await v.get(`/my-links/${profileId}/statistics.csv?table=sources`)).status, 200)
  })
})

describe(`dashboard: statistics of visits sent over HTTP (${STORE})`, () => {
  let t: TestApp
  const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
  // Behind a proxy on loopback, as the service is deployed: the visitor's address is forwarded.
  before(async () => {
    t = await startApp({ TRUST_PROXY: 'loopback' })
  })
  after(() => t.close())

  it('shows the referrer, country and device a visit came with, and its click on the event block by the event’s title', async () => {
    const { v, user } = await registeredVisitor(t)
    const profile = await makeProfile(t, user)
    const principal = ownerPrincipal(user)
    const event = await useCases.editor.createEvent(t.ctx, principal, profile.id, {
      event: { title: 'Spring market', startsAt: '2027-04-17T10:00', link: 'https://market.example' },
    })
    const headers = { 'user-agent': IPHONE, accept: 'text/html', 'x-forwarded-for': '81.2.69.160', referer: 'https://www.pinterest.com/pin/1' }
    const page = await fetch(`${t.url}/${profile.login}`, { headers })
    assert.equal(page.status, 200)
    await page.arrayBuffer()
    const click = await fetch(`${t.url}/-/go/${profile.id}/${event.id}/0`, { headers, redirect: 'manual' })
    assert.equal(click.status, 302)
    await t.ctx.intake.flush()

    const res = await v.get(`/my-links/${profile.id}/statistics?period=last7`)
    const text = readable(res.text)
    assert.match(text, /Where visitors came from .* Pinterest 1 0 new 100\s% 1 /)
    assert.match(text, /Countries .* United Kingdom 1 0 new 100\s% 1 /)
    assert.match(text, /Devices .* Phone 1 0 new 100\s% 1 /)
    assert.match(text, /Browsers .* Safari 1 0 new 100\s% 1 /)
    assert.match(text, /Where people clicked .* Spring market Event block 1 0 new /)
  })
})
