import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { addDays, localDay } from '../../src/analytics/local-day.ts'
import { resolveQuery } from '../../src/analytics/period.ts'
import { pageReport } from '../../src/analytics/report.ts'
import { closeContext } from '../../src/app.ts'
import { accounts } from '../../src/auth/accounts.ts'
import { profileService } from '../../src/profiles/profile-service.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { STORE } from '../helpers/app.ts'
import { cli } from '../helpers/process.ts'
import { type SeparateStore, separateStore } from '../helpers/separate-store.ts'
import { insertButtonSlots } from '../helpers/slots.ts'

describe(`cli analytics seed and purge (${STORE})`, () => {
  // The CLI reads the same store through its environment: a schema of its own on PostgreSQL.
  let outside: SeparateStore
  before(async () => {
    outside = await separateStore(STORE, 'slotline-cli-analytics')
    const ctx = await outside.open()
    const user = await accounts.createUser(ctx.db, { email: 'seed@example.test', password: 'correct horse battery', name: 'Seed' })
    const page = await profileService.create(ctx.db, user.id, 'seeded.page')
    await profilesRepository.update(ctx.db, page.id, { socials: [{ link: 'https://instagram.com/seeded', order: 0 }] })
    await insertButtonSlots(ctx.db, page.id, ['Shop', 'Blog', 'Contact'])
    // One visit far past retention, for the purge to find.
    ctx.intake.view({
      profileId: page.id,
      ip: '192.0.2.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0',
      at: new Date(Date.now() - 500 * 86_400_000),
    })
    await closeContext(ctx)
  })
  after(() => outside.remove())

  it('seed fills exactly the requested events over the requested days', async () => {
    const res = await cli(['analytics', 'seed', '--login', 'seeded.page', '--days', '60', '--events', '20000'], outside.env)
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /^Seeded seeded\.page from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}: \d+ views, \d+ clicks/m)

    const ctx = await outside.open()
    try {
      const page = (await profilesRepository.findByLogin(ctx.db, 'seeded.page'))!
      const today = localDay(new Date(), 'UTC')
      const query = { dateFrom: addDays(today, -59), dateTo: today, include: 'timeline' }
      const report = await pageReport(ctx.db, page, resolveQuery(query, 'UTC'))
      assert.equal(report.totals.views + report.totals.clicks, 20_000)
      assert.ok(report.totals.ctr > 0.02 && report.totals.ctr < 0.04, `ctr ${report.totals.ctr}`)
      assert.ok(
        report.timeline!.every((p) => p.views > 0),
        'every seeded day has views',
      )
      const [shop, blog, contact] = report.blocks
      assert.ok(shop!.clicks > blog!.clicks && blog!.clicks > contact!.clicks, 'a few blocks take most clicks')
      assert.ok(report.socials[0]!.clicks > 0)
      assert.ok(report.totals.uniqueVisitors < report.totals.views, 'some visitors come back within a day')
      // Month sketches were rebuilt from the seeded days: the days-only route agrees.
      const byWeek = await pageReport(ctx.db, page, resolveQuery({ ...query, bucket: 'week' }, 'UTC'))
      assert.equal(byWeek.totals.uniqueVisitors, report.totals.uniqueVisitors)
    } finally {
      await closeContext(ctx)
    }
  })

  it('purge drops what is past retention and says how much', async () => {
    const res = await cli(['analytics', 'purge'], outside.env)
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /^Removed [1-9]\d* analytics rows dated before \d{4}-\d{2}-\d{2}\./m)
  })

  it('explains bad options with a non-zero exit', async () => {
    const zero = await cli(['analytics', 'seed', '--login', 'seeded.page', '--days', '0'], outside.env)
    assert.notEqual(zero.code, 0)
    assert.match(zero.stderr, /--days must be a whole number from 1 to 365/)
    const unknown = await cli(['analytics', 'seed', '--login', 'nobody.here'], outside.env)
    assert.notEqual(unknown.code, 0)
    assert.match(unknown.stderr, /No profile with login "nobody\.here"/)
  })
})
