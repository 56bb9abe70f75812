import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ownerPrincipal, type Principal } from '../../src/auth/principal.ts'
import type { AppEvents } from '../../src/context.ts'
import { AppError } from '../../src/kernel/errors.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { slotsRepository } from '../../src/store/slots.ts'
import { makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

/** Records 'profile-changed' events until stopped. */
function listen(t: TestApp) {
  const seen: AppEvents['profile-changed'][0][] = []
  const fn = (e: AppEvents['profile-changed'][0]) => void seen.push(e)
  t.ctx.events.on('profile-changed', fn)
  return { seen, stop: () => t.ctx.events.off('profile-changed', fn) }
}

const code = (c: string) => (err: unknown) => err instanceof AppError && err.code === c

describe(`use cases, called without HTTP (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  async function owner(): Promise<{ principal: Principal; login: string; id: number }> {
    const user = await makeUser(t)
    const profile = await makeProfile(t, user)
    return { principal: ownerPrincipal(user), login: profile.login, id: profile.id }
  }

  it('creates a slot by login or by id and announces the page once per write', async () => {
    const { principal, login, id } = await owner()
    const events = listen(t)
    try {
      const slot = await useCases.slots.create(t.ctx, principal, login, { type: 'text', data: { title: 'Hi' } })
      assert.equal(slot.type, 'text')
      await useCases.slots.update(t.ctx, principal, id, { slot: slot.id, data: { title: 'Hello' } })
      assert.deepEqual(events.seen, [
        { profileId: id, logins: [login] },
        { profileId: id, logins: [login] },
      ])
    } finally {
      events.stop()
    }
  })

  it('runs a dry run to the end and stores and announces nothing', async () => {
    const { principal, login, id } = await owner()
    const events = listen(t)
    try {
      const slots = await useCases.slots.createMany(
        t.ctx,
        principal,
        login,
        {
          slots: [
            { type: 'divider', data: {} },
            { type: 'text', data: { title: 'Soon' } },
          ],
        },
        { dryRun: true },
      )
      assert.equal(slots.length, 2, 'the dry run answers what the write would have made')
      assert.equal(await slotsRepository.countByProfile(t.ctx.db, id), 0)
      assert.deepEqual(events.seen, [])
      await assert.rejects(
        useCases.slots.create(t.ctx, principal, login, { type: 'button', data: { link: 'javascript:alert(1)' } }, { dryRun: true }),
        code('validation_failed'),
      )
    } finally {
      events.stop()
    }
  })

  it('answers not_found for another account’s page, by login and by id, on reads and writes', async () => {
    const mine = await owner()
    const theirs = await owner()
    for (const key of [theirs.login, theirs.id, String(theirs.id)]) {
      await assert.rejects(useCases.slots.list(t.ctx, mine.principal, key), code('not_found'))
      await assert.rejects(useCases.profiles.update(t.ctx, mine.principal, key, { title: 'Mine now' }), code('not_found'))
    }
    await assert.rejects(useCases.profiles.checkLogin(t.ctx, mine.principal, { login: 'free.login', profile: theirs.login }), code('not_found'))
  })

  it('refuses a write to a read-only principal with forbidden, before looking at the page', async () => {
    const { principal, login } = await owner()
    const reader: Principal = { ...principal, abilities: ['profile:read'] }
    await assert.rejects(useCases.slots.create(t.ctx, reader, login, { type: 'divider' }), code('forbidden'))
    await assert.rejects(useCases.slots.create(t.ctx, reader, 'no.such.page', { type: 'divider' }), code('forbidden'))
    await assert.rejects(useCases.files.issueUploadUrl(t.ctx, reader), code('forbidden'))
    assert.equal((await useCases.slots.list(t.ctx, reader, login)).length, 0)
  })

  it('announces the old and the new login after a rename', async () => {
    const { principal, login, id } = await owner()
    const events = listen(t)
    try {
      const renamed = `${login}.new`.slice(0, 60)
      const settings = await useCases.profiles.changeSettings(t.ctx, principal, login, { login: renamed })
      assert.equal(settings.login, renamed)
      assert.deepEqual(events.seen, [{ profileId: id, logins: [login, renamed] }])
    } finally {
      events.stop()
    }
  })

  it('runs an idempotent call once: a repeat answers the first result, another input with the key is a mismatch', async () => {
    const { principal, login, id } = await owner()
    const call = (title: string) =>
      useCases.runIdempotent(t.ctx, principal, { key: 'k-1', operation: 'slots.create', input: [login, { type: 'text', data: { title } }] }, () =>
        useCases.slots.create(t.ctx, principal, login, { type: 'text', data: { title } }),
      )
    const first = await call('Once')
    const again = await call('Once')
    assert.deepEqual(again, first)
    assert.equal(await slotsRepository.countByProfile(t.ctx.db, id), 1)
    await assert.rejects(call('Twice'), code('idempotency_mismatch'))
  })

  it('frees the key of a failed idempotent call, so a corrected retry may use it', async () => {
    const { principal, login } = await owner()
    const run = (data: unknown) =>
      useCases.runIdempotent(t.ctx, principal, { key: 'k-2', operation: 'slots.create', input: [login, data] }, () =>
        useCases.slots.create(t.ctx, principal, login, { type: 'button', data }),
      )
    await assert.rejects(run({ link: 'javascript:alert(1)' }), code('validation_failed'))
    const ok = await run({ title: 'Shop', link: 'example.com/shop' })
    assert.equal(ok.type, 'button')
  })
})
