import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import type { VisitInput } from '../../src/analytics/intake.ts'
import { addDays, localDay } from '../../src/analytics/local-day.ts'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { Visitor, freshEmail } from '../helpers/dashboard.ts'
import { localContext } from '../helpers/browser.ts'
import { audit, LAUNCH, newContext, openPage } from '../helpers/editor-browser.ts'
import { usersRepository } from '../../src/store/users.ts'
import { solid } from '../media/images.ts'

// issue 40, item 5: a creator in Los Angeles reads where her visitors came from (source, country,
// device, browser) beside the previous period, which block they clicked by its title, and takes
// each table away as a CSV whose days are her own.

const INSTAGRAM =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 350.0.0.23.106 (iPhone15,3; iOS 18_1; en_GB)'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'
const US = '8.8.8.8'
const GB = '81.2.69.160'
const JP = '133.11.0.1'

const ZONE = 'America/Los_Angeles'

/** A CSV as a spreadsheet reads it (RFC 4180): rows of cells, quoted cells unquoted. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  const cell = /("(?:[^"]|"")*"|[^",\r\n]*)(,|\r\n|$)/y
  let row: string[] = []
  for (let at = text.startsWith('\uFEFF') ? 1 : 0; at < text.length; ) {
    cell.lastIndex = at
    const m = cell.exec(text)!
    row.push(m[1].startsWith('"') ? m[1].slice(1, -1).replaceAll('""', '"') : m[1])
    at = cell.lastIndex
    if (m[2] !== ',') {
      rows.push(row)
      row = []
    }
  }
  return rows
}

describe(`statistics a creator reads: sources, countries, devices, browsers, blocks by title, CSV (${STORE})`, () => {
  let t: TestApp
  let browser: Browser
  let owner: Visitor
  let profileId: number
  let login: string
  const today = localDay(new Date(), ZONE)
  const yesterday = addDays(today, -1)

  before(async () => {
    t = await startApp()
    browser = await chromium.launch(LAUNCH)
    owner = Visitor.of(t)
    const email = freshEmail()
    await owner.register({ email, timezone: ZONE })
    const user = (await usersRepository.findByEmail(t.ctx.db, email))!
    const principal = ownerPrincipal(user)
    const profile = await makeProfile(t, user)
    profileId = profile.id
    login = profile.login
    await useCases.profiles.update(t.ctx, principal, profileId, { title: 'Lind Ceramics' })
    const book = await useCases.slots.create(t.ctx, principal, profileId, { type: 'button', data: { title: 'Book a class', link: 'https://book.example' } })
    const event = await useCases.editor.createEvent(t.ctx, principal, profileId, {
      event: { title: 'Open studio', startsAt: '2027-05-01T19:30', location: 'The studio', link: 'https://tickets.example' },
    })
    const bytes = await solid(240, 160, 'png', '#3355aa')
    const file = await useCases.files.upload(t.ctx, principal, { stream: Readable.from(bytes), length: bytes.length })
    const picture = await useCases.slots.create(t.ctx, principal, profileId, {
      type: 'picture',
      data: { path: file!.path, alt: 'A blue bowl', link: 'https://shop.example/bowl' },
    })

    const intake = t.ctx.intake
    // Noon in Los Angeles, summer or winter, `daysAgo` days before today there.
    const noon = (daysAgo: number) => new Date(`${addDays(today, -daysAgo)}T20:00:00Z`)
    const view = (v: Omit<VisitInput, 'profileId'>) => assert.ok(intake.view({ profileId, ...v }))
    const click = (slotId: number, v: Omit<VisitInput, 'profileId'>) => assert.ok(intake.click({ profileId, slotId, socialIndex: null, ...v }))
    // The last 7 days.
    for (let i = 0; i < 3; i++) view({ ip: US, userAgent: INSTAGRAM, at: noon(2) })
    for (let i = 0; i < 2; i++) click(book.id, { ip: US, userAgent: INSTAGRAM, at: noon(2) })
    for (let i = 0; i < 2; i++) view({ ip: GB, userAgent: IPHONE, referer: 'https://www.google.co.uk/', at: noon(2) })
    click(event.id, { ip: GB, userAgent: IPHONE, referer: 'https://www.google.co.uk/', at: noon(2) })
    view({ ip: GB, userAgent: IPAD, url: `/${login}?utm_source=newsletter`, at: noon(3) })
    // Yesterday at 8 in the evening in Los Angeles: already today in UTC.
    const evening = new Date(`${today}T04:00:00Z`)
    assert.equal(localDay(evening, ZONE), yesterday)
    view({ ip: JP, userAgent: DESKTOP, at: evening })
    click(picture.id, { ip: JP, userAgent: DESKTOP, at: evening })
    // The 7 days before.
    for (let i = 0; i < 4; i++) view({ ip: US, userAgent: INSTAGRAM, at: noon(9) })
    view({ ip: JP, userAgent: DESKTOP, at: noon(10) })
    click(book.id, { ip: US, userAgent: INSTAGRAM, at: noon(9) })
    await intake.flush()
  })
  after(async () => {
    await browser?.close()
    await t?.close()
  })

  /** A signed-in browser on the page's statistics for the last 7 days. */
  async function open(width: number) {
    const context = await newContext(browser, { width })
    await context.addCookies([...owner.cookies].map(([name, value]) => ({ name, value, url: t.url })))
    const { page, problems } = await openPage(context)
    await page.goto(`${t.url}/my-links/${profileId}`)
    await page
      .getByRole('link', { name: /statistics/i })
      .first()
      .click()
    await page.getByRole('heading', { level: 1, name: 'Statistics of Lind Ceramics' }).waitFor()
    await page.getByRole('link', { name: 'Last 7 days' }).click()
    await page.getByRole('link', { name: 'Last 7 days' }).and(page.locator('[aria-current="page"]')).waitFor()
    return { context, page, problems }
  }

  const table = (page: Page, name: string) => page.getByRole('table', { name, exact: true })

  /** The cells after the row header of the row named `name`, as shown. */
  async function cellsOf(t: Locator, name: string) {
    const row = t.getByRole('row').filter({ has: t.page().getByRole('rowheader', { name, exact: true }) })
    assert.equal(await row.count(), 1, `one row for ${name}`)
    return (await row.getByRole('cell').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim())
  }

  it('lists sources, countries, devices and browsers with views, share, the previous period and clicks', async () => {
    const { context, page, problems } = await open(1280)
    const totals = page.getByRole('region', { name: /to/ }).first()
    assert.match(await totals.innerText(), /Views\s+7\s+previous period: 5 \(up 40\s%\)/)
    assert.match(await totals.innerText(), /The previous period is/)

    const sources = table(page, 'Where visitors came from')
    // Views | Views, previous period | Change | Share of views | Clicks
    assert.deepEqual(await cellsOf(sources, 'Instagram'), ['3', '4', 'down 25 %', '43 %', '2'])
    assert.deepEqual(await cellsOf(sources, 'Google (google.co.uk)'), ['2', '0', 'new', '29 %', '1'])
    assert.deepEqual(await cellsOf(sources, 'newsletter'), ['1', '0', 'new', '14 %', '0'])
    assert.deepEqual(await cellsOf(sources, 'Direct'), ['1', '1', 'no change', '14 %', '1'])

    const countries = table(page, 'Countries')
    assert.deepEqual(await cellsOf(countries, 'United States'), ['3', '4', 'down 25 %', '43 %', '2'])
    assert.deepEqual(await cellsOf(countries, 'United Kingdom'), ['3', '0', 'new', '43 %', '1'])
    assert.deepEqual(await cellsOf(countries, 'Japan'), ['1', '1', 'no change', '14 %', '1'])

    const devices = table(page, 'Devices')
    assert.deepEqual(await cellsOf(devices, 'Phone'), ['5', '4', 'up 25 %', '71 %', '3'])
    assert.deepEqual(await cellsOf(devices, 'Tablet'), ['1', '0', 'new', '14 %', '0'])
    assert.deepEqual(await cellsOf(devices, 'Computer'), ['1', '1', 'no change', '14 %', '1'])

    const browsers = table(page, 'Browsers')
    assert.deepEqual(await cellsOf(browsers, 'Instagram app'), ['3', '4', 'down 25 %', '43 %', '2'])
    assert.deepEqual(await cellsOf(browsers, 'Safari'), ['3', '0', 'new', '43 %', '1'])
    assert.deepEqual(await cellsOf(browsers, 'Chrome'), ['1', '1', 'no change', '14 %', '1'])

    // Every column has a header; the first cell of each row names it.
    for (const name of ['Where visitors came from', 'Countries', 'Devices', 'Browsers']) {
      assert.deepEqual(await table(page, name).getByRole('columnheader').allInnerTexts(), [
        { 'Where visitors came from': 'Source', Countries: 'Country', Devices: 'Device', Browsers: 'Browser' }[name],
        'Views',
        'Views, previous period',
        'Change',
        'Share of views',
        'Clicks',
      ])
    }
    assert.deepEqual(problems, [])
    await context.close()
  })

  it('names every clicked block by its title and type, beside its clicks in the previous period', async () => {
    const { context, page } = await open(1280)
    const clicks = table(page, 'Where people clicked')
    // Kind | Clicks | Clicks, previous period | Change
    assert.deepEqual(await cellsOf(clicks, 'Book a class'), ['Button block', '2', '1', 'up 100 %'])
    assert.deepEqual(await cellsOf(clicks, 'Open studio'), ['Event block', '1', '0', 'new'])
    assert.deepEqual(await cellsOf(clicks, 'A blue bowl'), ['Picture block', '1', '0', 'new'])
    assert.deepEqual(await cellsOf(clicks, 'All clicks'), ['4', '1', 'up 300 %'])
    await context.close()
  })

  it('downloads each table as a CSV: days counted in the owner’s time zone, sources with the previous period', async () => {
    const { context, page } = await open(1280)
    const download = async (name: string) => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name, exact: true }).click()])
      return { name: file.suggestedFilename(), rows: parseCsv(await readFile((await file.path())!, 'utf8')) }
    }

    const days = await download('Download “Day by day” (CSV)')
    assert.equal(days.name, `${login}-days-${addDays(today, -6)}-${today}.csv`)
    assert.deepEqual(days.rows[0], [`Day (${ZONE})`, 'Views', 'Unique visitors', 'Clicks'])
    assert.deepEqual(
      days.rows.slice(1).map((r) => r[0]),
      Array.from({ length: 7 }, (_, i) => addDays(today, i - 6)),
    )
    // The evening visit and click belong to yesterday in Los Angeles, not to today as in UTC.
    const row = (day: string) =>
      days.rows
        .find((r) => r[0] === day)!
        .slice(1)
        .map(Number)
    assert.deepEqual(row(yesterday), [1, 1, 1])
    assert.deepEqual(row(today), [0, 0, 0])
    assert.deepEqual(
      row(addDays(today, -2)).filter((_, i) => i !== 1),
      [5, 3],
    )

    const sources = await download('Download “Where visitors came from” (CSV)')
    assert.equal(sources.name, `${login}-sources-${addDays(today, -6)}-${today}.csv`)
    assert.deepEqual(sources.rows, [
      ['Source', 'Views', 'Views, previous period', 'Clicks', 'Clicks, previous period'],
      ['Instagram', '3', '4', '2', '1'],
      ['Google (google.co.uk)', '2', '0', '1', '0'],
      ['Direct', '1', '1', '1', '0'],
      ['newsletter', '1', '0', '0', '0'],
    ])

    const clicks = await download('Download “Where people clicked” (CSV)')
    assert.deepEqual(clicks.rows, [
      ['Block or link', 'Kind', 'Clicks', 'Clicks, previous period'],
      ['Book a class', 'Button block', '2', '1'],
      ['Open studio', 'Event block', '1', '0'],
      ['A blue bowl', 'Picture block', '1', '0'],
    ])
    for (const [name, first] of [
      ['Countries', 'Country'],
      ['Devices', 'Device'],
      ['Browsers', 'Browser'],
    ]) {
      const file = await download(`Download “${name}” (CSV)`)
      assert.equal(file.rows[0][0], first)
      assert.equal(file.rows.length, 4, name)
    }
    await context.close()
  })

  it('works without JavaScript: a period and a month are picked with plain links and a form', async () => {
    const context = await localContext(browser, { javaScriptEnabled: false, viewport: { width: 375, height: 900 } })
    await context.addCookies([...owner.cookies].map(([name, value]) => ({ name, value, url: t.url })))
    const page = await context.newPage()
    await page.goto(`${t.url}/my-links/${profileId}/statistics`)
    assert.equal(await page.getByLabel('A month').inputValue(), '', 'no month is chosen while the last 28 days are shown')
    await page.getByLabel('A month').selectOption(today.slice(0, 7))
    await page.getByRole('button', { name: 'Show the month' }).click()
    await page.waitForURL(/month=/)
    assert.equal(await page.getByLabel('A month').inputValue(), today.slice(0, 7))
    await page.getByRole('link', { name: 'Last 7 days' }).click()
    await page.waitForURL(/period=last7/)
    assert.equal((await cellsOf(table(page, 'Where visitors came from'), 'Instagram'))[0], '3')
    await context.close()
  })

  it('shows all the pages of the account with the same tables: pages, blocks by title and page, sources with the previous period, a CSV each', async () => {
    const context = await newContext(browser, { width: 1280 })
    await context.addCookies([...owner.cookies].map(([name, value]) => ({ name, value, url: t.url })))
    const { page, problems } = await openPage(context)
    await page.goto(`${t.url}/my-links`)
    await page.getByRole('link', { name: 'Statistics of all your pages' }).click()
    await page.getByRole('heading', { level: 1, name: 'Statistics of all your pages' }).waitFor()
    await page.getByRole('link', { name: 'Last 7 days' }).click()
    await page.getByRole('link', { name: 'Last 7 days' }).and(page.locator('[aria-current="page"]')).waitFor()
    assert.deepEqual(await cellsOf(table(page, 'Your pages'), 'Lind Ceramics'), ['7', '5', 'up 40 %', '100 %', '4'])
    assert.deepEqual(await cellsOf(table(page, 'Where visitors came from'), 'Instagram'), ['3', '4', 'down 25 %', '43 %', '2'])
    assert.deepEqual(await cellsOf(table(page, 'Countries'), 'United Kingdom'), ['3', '0', 'new', '43 %', '1'])
    assert.deepEqual(await cellsOf(table(page, 'Devices'), 'Phone'), ['5', '4', 'up 25 %', '71 %', '3'])
    assert.deepEqual(await cellsOf(table(page, 'Browsers'), 'Chrome'), ['1', '1', 'no change', '14 %', '1'])
    const clicks = table(page, 'Where people clicked')
    assert.deepEqual(await cellsOf(clicks, 'Book a class'), ['Button block on Lind Ceramics', '2', '1', 'up 100 %'])
    assert.deepEqual(await cellsOf(clicks, 'A blue bowl'), ['Picture block on Lind Ceramics', '1', '0', 'new'])
    assert.deepEqual(await cellsOf(clicks, 'All clicks'), ['4', '1', 'up 300 %'])
    const download = async (name: string) => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name, exact: true }).click()])
      return { name: file.suggestedFilename(), rows: parseCsv(await readFile((await file.path())!, 'utf8')) }
    }
    const pages = await download('Download “Your pages” (CSV)')
    assert.equal(pages.name, `all-pages-pages-${addDays(today, -6)}-${today}.csv`)
    assert.deepEqual(pages.rows, [
      ['Page', 'Views', 'Views, previous period', 'Clicks', 'Clicks, previous period'],
      ['Lind Ceramics', '7', '5', '4', '1'],
    ])
    assert.deepEqual((await download('Download “Where people clicked” (CSV)')).rows[1], ['Book a class', 'Button block on Lind Ceramics', '2', '1'])
    for (const name of ['Where visitors came from', 'Countries', 'Devices', 'Browsers', 'Day by day'])
      assert.ok((await download(`Download “${name}” (CSV)`)).rows.length > 1, name)
    await audit(page, problems, 'statistics-all-pages')
    await context.close()
  })

  it('reads well at 375 and 1280 px, light and dark: axe finds nothing serious, nothing scrolls sideways', async () => {
    const { context, page, problems } = await open(375)
    await audit(page, problems, 'statistics')
    await context.close()
  })
})
