import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import type { AppEvents } from '../../src/context.ts'
import { AppError } from '../../src/kernel/errors.ts'
import { deleteProfile } from '../../src/core/profile-deletion.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeProfile, makeUser, STORE, startApp, type TestApp } from '../helpers/app.ts'

const code = (c: string) => (err: unknown) => err instanceof AppError && err.code === c

describe(`deleteProfile, called without HTTP (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('deletes nothing on a dry run, yet answers what would go', async () => {
    const user = await makeUser(t)
    const profile = await makeProfile(t, user)
    const answer = await deleteProfile(t.ctx, ownerPrincipal(user), profile.id, { confirmLogin: profile.login }, { dryRun: true })
    assert.deepEqual(answer, { profileId: profile.id, login: profile.login, removedFiles: [] })
    assert.ok(await profilesRepository.findById(t.ctx.db, profile.id))
  })

  it('needs profile:write, the typed login and the page to be the principal’s', async () => {
    const user = await makeUser(t)
    const profile = await makeProfile(t, user)
    const reader = { ...ownerPrincipal(user), tokenId: 1, abilities: ['profile:read' as const] }
    await assert.rejects(deleteProfile(t.ctx, reader, profile.id, { confirmLogin: profile.login }), code('forbidden'))
    await assert.rejects(deleteProfile(t.ctx, ownerPrincipal(user), profile.id, { confirmLogin: 'nope' }), code('validation_failed'))
    const stranger = ownerPrincipal(await makeUser(t))
    await assert.rejects(deleteProfile(t.ctx, stranger, profile.id, { confirmLogin: profile.login }), code('not_found'))
    await assert.rejects(deleteProfile(t.ctx, stranger, profile.login, { confirmLogin: profile.login }), code('not_found'))
    assert.ok(await profilesRepository.findById(t.ctx.db, profile.id))
  })

  it('announces the page once, after the commit, by its login and id', async () => {
    const user = await makeUser(t)
    const profile = await makeProfile(t, user)
    const seen: AppEvents['profile-changed'][0][] = []
    const listener = (e: AppEvents['profile-changed'][0]) => void seen.push(e)
    t.ctx.events.on('profile-changed', listener)
    try {
      await deleteProfile(t.ctx, ownerPrincipal(user), profile.login, { confirmLogin: profile.login })
    } finally {
      t.ctx.events.off('profile-changed', listener)
    }
    assert.deepEqual(seen, [{ profileId: profile.id, logins: [profile.login] }])
    assert.equal(await profilesRepository.findById(t.ctx.db, profile.id), undefined)
  })
})
