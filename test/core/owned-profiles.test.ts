import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ownerPrincipal } from '../../src/auth/principal.ts'
import * as useCases from '../../src/core/use-cases.ts'
import { makeAccount, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { type Fleet, startFleet } from '../fleet/fleet.ts'

// A token's reads take the page from infra/owned-profiles.ts while the account's revision has
// not moved. Each test reads first (so the page is kept), writes through another face or
// instance, and expects the very next read to show the write, with no waiting.

/** Runs the same checks on `reader` after writes made through `writer` (the same or another instance). */
function pagesReadAtTheAccountRevision(instances: () => [TestApp, TestApp]) {
  async function pageReadOnce() {
    const [writer, reader] = instances()
    const { user, token } = await makeAccount(writer)
    const principal = ownerPrincipal(user)
    const created = await useCases.profiles.create(writer.ctx, principal, { login: `kept_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}` })
    const read = await reader.request('GET', `/v1/profiles/${created.login}?include=slots`, { token })
    assert.equal(read.status, 200)
    return { writer, reader, user, principal, token, created }
  }

  it('shows a profile change made through the dashboard’s use case on the next read', async () => {
    const { writer, reader, principal, token, created } = await pageReadOnce()
    await useCases.profiles.update(writer.ctx, principal, created.id, { title: 'Changed elsewhere' })
    const again = await reader.request('GET', `/v1/profiles/${created.login}`, { token })
    assert.equal(again.body.data.title, 'Changed elsewhere')
  })

  it('shows a slot added through another face on the next read, in the page and its slots', async () => {
    const { writer, reader, principal, token, created } = await pageReadOnce()
    await useCases.slots.create(writer.ctx, principal, created.id, { type: 'text', data: { title: 'Fresh' } })
    const page = await reader.request('GET', `/v1/profiles/${created.login}?include=slots`, { token })
    assert.deepEqual(
      page.body.data.slots.map((s: { data: { title: string } }) => s.data.title),
      ['Fresh'],
    )
    assert.equal((await reader.request('GET', `/v1/profiles/${created.id}/slots`, { token })).body.data.length, 1)
  })

  it('answers 404 for the old login after a rename, and the page by its new one', async () => {
    const { writer, reader, principal, token, created } = await pageReadOnce()
    const renamed = `${created.login}_b`.slice(0, 60)
    await useCases.profiles.changeSettings(writer.ctx, principal, created.id, { login: renamed })
    assert.equal((await reader.request('GET', `/v1/profiles/${created.login}`, { token })).status, 404)
    assert.equal((await reader.request('GET', `/v1/profiles/${renamed}`, { token })).body.data.id, created.id)
  })

  it('answers 404 for a deleted page on the next read', async () => {
    const { writer, reader, principal, token, created } = await pageReadOnce()
    await useCases.profiles.remove(writer.ctx, principal, created.id, { confirmLogin: created.login })
    assert.equal((await reader.request('GET', `/v1/profiles/${created.id}`, { token })).status, 404)
  })

  it('shows which page is the main one after another became it', async () => {
    const { writer, reader, principal, token, created } = await pageReadOnce()
    const second = await useCases.profiles.create(writer.ctx, principal, { login: `${created.login}_2`.slice(0, 60) })
    assert.equal((await reader.request('GET', `/v1/profiles/${created.id}`, { token })).body.data.computed.isMain, true)
    await useCases.editor.makeMain(writer.ctx, principal, second.id)
    assert.equal((await reader.request('GET', `/v1/profiles/${created.id}`, { token })).body.data.computed.isMain, false)
  })

  it('keeps nothing from a dry run', async () => {
    const { writer, reader, principal, token, created } = await pageReadOnce()
    await useCases.profiles.update(writer.ctx, principal, created.id, { title: 'Only tried' }, { dryRun: true })
    assert.equal((await reader.request('GET', `/v1/profiles/${created.id}`, { token })).body.data.title, null)
  })
}

describe(`pages read at the account revision, one instance (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())
  pagesReadAtTheAccountRevision(() => [t, t])
})

describe('pages read at the account revision, two instances sharing PostgreSQL and Redis', {
  skip: STORE !== 'postgres' && 'needs TEST_DATABASE_URL and TEST_REDIS_URL',
}, () => {
  let fleet: Fleet
  before(async () => {
    fleet = await startFleet()
  })
  after(() => fleet?.close())
  pagesReadAtTheAccountRevision(() => [fleet.instances[0], fleet.instances[1]])
})
