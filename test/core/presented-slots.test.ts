import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { slotsRepository } from '../../src/store/slots.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'

describe(`presented slots, kept per slots revision (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  async function page() {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const base = `/v1/profiles/${profile.id}/slots`
    const res = await t.request('POST', `${base}/batch`, {
      token,
      body: {
        slots: [
          { type: 'text', data: { title: 'a' } },
          { type: 'divider', data: {} },
          { type: 'text', data: { title: 'c' } },
        ],
      },
    })
    assert.equal(res.status, 201)
    return { user, profile, token, base, ids: res.body.data.map((s: { id: number }) => s.id) as number[] }
  }

  const revision = async (id: number) => (await profilesRepository.findById(t.ctx.db, id))!.slotsRevision

  it('moves the revision with every kind of slot write in the store', async () => {
    const { profile, ids } = await page()
    let last = await revision(profile.id)
    const moved = async (what: string) => {
      const now = await revision(profile.id)
      assert.ok(now > last, `${what} moves the revision`)
      last = now
    }
    await slotsRepository.insertMany(t.ctx.db, profile.id, [{ type: 'text', data: { title: 'd' }, position: 3 }])
    await moved('insertMany')
    await slotsRepository.updateData(t.ctx.db, ids[0], { title: 'A' })
    await moved('updateData')
    await slotsRepository.shiftFrom(t.ctx.db, profile.id, 4, 1)
    await moved('shiftFrom')
    await slotsRepository.setPositions(t.ctx.db, profile.id, [
      { id: ids[0], position: 1 },
      { id: ids[1], position: 0 },
    ])
    await moved('setPositions')
    await slotsRepository.deleteMany(t.ctx.db, profile.id, [ids[2]])
    await moved('deleteMany')
  })

  it('answers a write made around the use cases on the next read that does not trust a cached page', async () => {
    const { user, profile, token, base } = await page()
    assert.equal((await t.request('GET', base, { token })).body.data.length, 3)
    await slotsRepository.insertMany(t.ctx.db, profile.id, [{ type: 'countdown', data: { title: 'legacy' }, position: 3 }])
    const types = (slots: Array<{ type: string }>) => slots.map((s) => s.type)
    // The dashboard and the command line read the page row every time: the slots revision
    // moved with the insert, so the presented copy is not used.
    assert.deepEqual(types(await useCases.slots.list(t.ctx, ownerPrincipal(user), profile.id)), ['text', 'divider', 'text', 'countdown'])
    // A token's reads trust the page as read at the account's revision, which the core moves
    // with every write it makes (infra/owned-profiles.ts); a write around it moves it by hand.
    await t.ctx.verifiedTokens.changed(user.id)
    assert.deepEqual(types((await t.request('GET', base, { token })).body.data), ['text', 'divider', 'text', 'countdown'])
  })

  it('answers every API write on the next read, and the same slots with include=slots', async () => {
    const { profile, token, base, ids } = await page()
    await t.request('GET', base, { token })
    assert.equal((await t.request('PATCH', `${base}/${ids[0]}`, { token, body: { data: { title: 'changed' } } })).status, 200)
    const list = await t.request('GET', base, { token })
    assert.equal(list.body.data[0].data.title, 'changed')
    assert.equal((await t.request('PUT', `${base}/order`, { token, body: { order: [ids[2], ids[1], ids[0]] } })).status, 200)
    const reordered = await t.request('GET', base, { token })
    assert.deepEqual(
      reordered.body.data.map((s: { id: number }) => s.id),
      [ids[2], ids[1], ids[0]],
    )
    const withSlots = await t.request('GET', `/v1/profiles/${profile.id}?include=slots`, { token })
    assert.deepEqual(withSlots.body.data.slots, reordered.body.data)
    assert.equal(withSlots.headers['content-type'], 'application/json; charset=utf-8')
    const plain = await t.request('GET', `/v1/profiles/${profile.id}`, { token })
    const { slots: _, ...rest } = withSlots.body.data
    assert.deepEqual(rest, plain.body.data)
  })

  it('never shows one account the slots kept for another', async () => {
    const { profile } = await page()
    const stranger = await makeAccount(t)
    assert.equal((await t.request('GET', `/v1/profiles/${profile.id}/slots`, { token: stranger.token })).status, 404)
  })
})
