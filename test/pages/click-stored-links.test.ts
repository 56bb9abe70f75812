import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { slotService } from '../../src/slots/slot-service.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

describe(`GET /-/go/… on links stored around the API (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('answers 404, never 500, for a stored link that does not parse or is not absolute', async () => {
    const { user } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const [slot] = await slotService.appendManaged(t.ctx.db, profile, [{ type: 'button', data: { title: 'Go', link: 'https://example.test/' } }])
    // As after a migration or a hand edit: written to the database directly, never normalised.
    for (const link of ['/relative', '//evil.test/x', '\\\\evil.test', 'http://[::1', 'not a url', 'javascript:alert(1)']) {
      await t.ctx.db
        .updateTable('slots')
        .set({ data: JSON.stringify({ title: 'Go', link }) as never })
        .where('id', '=', slot.id)
        .execute()
      const res = await fetch(`${t.url}/-/go/${profile.id}/${slot.id}/0`, { redirect: 'manual' })
      assert.equal(res.status, 404, link)
      assert.equal(res.headers.get('location'), null, link)
    }
  })
})
