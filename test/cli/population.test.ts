import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { operator } from '../../src/core/use-cases.ts'
import { compileBody } from '../../src/kernel/validation.ts'
import type { PopulationResult } from '../../src/core/population-generator.ts'
import { slotTypes } from '../../src/slots/registry.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { usersRepository } from '../../src/store/users.ts'
import { makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'

const PAGES = 200

describe(`population generate, ${PAGES} pages (${STORE})`, () => {
  let t: TestApp
  let r: PopulationResult

  before(async () => {
    t = await startApp()
    r = await operator.generatePopulation(t.ctx, { pages: PAGES, days: 30 })
  })
  after(() => t.close())

  it('makes the pages on a fifth as many accounts, 1–40 blocks each of all ten types, and a history for every page', async () => {
    assert.equal(r.rows.pages, PAGES)
    assert.equal(r.rows.accounts, PAGES / 5)
    assert.ok(r.rows.blocks >= PAGES && r.rows.blocks <= PAGES * 40, String(r.rows.blocks))
    const generated = await t.ctx.db
      .selectFrom('slots')
      .innerJoin('profiles', 'profiles.id', 'slots.profile_id')
      .select(['slots.type', (eb) => eb.fn.countAll<number>().as('n')])
      .where('profiles.login', 'like', `p${r.run}%`)
      .groupBy('slots.type')
      .execute()
    assert.deepEqual(generated.map((g) => g.type).sort(), Object.keys(slotTypes).sort())
    const perPage = await t.ctx.db
      .selectFrom('slots')
      .innerJoin('profiles', 'profiles.id', 'slots.profile_id')
      .select(['slots.profile_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('profiles.login', 'like', `p${r.run}%`)
      .groupBy('slots.profile_id')
      .execute()
    assert.equal(perPage.length, PAGES)
    assert.ok(perPage.every((p) => Number(p.n) >= 1 && Number(p.n) <= 40))
    // A 200-page population is small: the top page gets 50 views a day, every page some.
    assert.ok(r.rows.analyticsDays > PAGES, String(r.rows.analyticsDays))
    // Every rollup the intake keeps: each visit day counted under all four breakdowns, clicks
    // on blocks and social links, and the accounts' sums.
    assert.ok(r.rows.breakdownDays >= r.rows.analyticsDays * 4, JSON.stringify(r.rows))
    assert.ok(r.rows.accountBreakdownDays > 0 && r.rows.accountBreakdownDays <= r.rows.breakdownDays, JSON.stringify(r.rows))
    assert.ok(r.rows.blockClickDays > 0 && r.rows.socialClickDays > 0, JSON.stringify(r.rows))
  })

  it("gives each account the sums of its pages' breakdowns, by day and by month", async () => {
    const totals = async (table: string, owner: string) =>
      (
        await sql<{ dimension: string; views: string | number; clicks: string | number }>`
          SELECT dimension, sum(views) AS views, sum(clicks) AS clicks FROM ${sql.table(table)} t
          WHERE ${sql.raw(owner)} IN (SELECT ${sql.raw(owner === 'profile_id' ? 'id' : 'user_id')} FROM profiles WHERE login LIKE ${`p${r.run}%`})
          GROUP BY dimension ORDER BY dimension`.execute(t.ctx.db)
      ).rows.map((row) => [row.dimension, Number(row.views), Number(row.clicks)])
    const pages = await totals('analytics_breakdown_daily', 'profile_id')
    assert.equal(pages.length, 4)
    assert.deepEqual(await totals('analytics_account_breakdown_daily', 'user_id'), pages)
    assert.deepEqual(await totals('analytics_breakdown_monthly', 'profile_id'), pages)
    assert.deepEqual(await totals('analytics_account_breakdown_monthly', 'user_id'), pages)
  })

  it('serves generated pages, hot and cold, whose blocks the API reads as valid and whose history it reports', async () => {
    for (const login of [r.hottestLogin, r.coldLogin]) {
      const profile = (await profilesRepository.findByLogin(t.ctx.db, login))!
      const page = await fetch(`${t.url}/${login}`)
      assert.equal(page.status, 200, login)
      assert.match(await page.text(), /class="block block-/)

      const owner = (await usersRepository.findById(t.ctx.db, profile.userId))!
      const token = await makeToken(t, owner)
      const slots = await t.request('GET', `/v1/profiles/${profile.id}/slots`, { token })
      assert.equal(slots.status, 200, slots.text)
      assert.ok(slots.body.data.length >= 1)
      for (const slot of slots.body.data) assert.equal(slot.supported, true, `${slot.type} ${JSON.stringify(slot.data)}`)
      // Valid by each type's schema in the registry, as the API reads them back.
      for (const slot of slots.body.data) {
        const valid = compileBody(slotTypes[slot.type as keyof typeof slotTypes].schema)
        assert.ok(valid(slot.data), `${slot.type}: ${JSON.stringify(valid.errors)}`)
      }
      // And the API takes the same data again (a dry run writes nothing). Pictures and galleries
      // show the template's images, which are not this owner's uploads, so they stay out.
      const writable = slots.body.data.filter(
        (s: { type: string }) => slotTypes[s.type as keyof typeof slotTypes].writable && s.type !== 'picture' && s.type !== 'gallery',
      )
      if (writable.length) {
        const again = await t.request('POST', `/v1/profiles/${profile.id}/slots/batch`, {
          token,
          headers: { precognition: 'true' },
          body: { slots: writable.slice(0, 10).map((s: { type: string; data: unknown }) => ({ type: s.type, data: s.data })) },
        })
        assert.equal(again.status, 204, again.text)
      }
      await t.ctx.intake.flush()
      const stats = await t.request('GET', `/v1/profiles/${profile.id}/analytics?period=last28&compare=false`, { token })
      assert.equal(stats.status, 200, stats.text)
      if (login === r.hottestLogin) {
        const data = stats.body.data
        assert.ok(data.totals.views >= 28 * 40, String(data.totals.views))
        assert.ok(data.totals.clicks > 0, JSON.stringify(data.totals))
      }
    }
  })
})
