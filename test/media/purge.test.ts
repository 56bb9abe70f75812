import assert from 'node:assert/strict'
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it, mock } from 'node:test'
import { filesPurge } from '../../src/cli/file-commands.ts'
import { parseAge } from '../../src/media/file-purge.ts'
import { nowIso } from '../../src/store/db.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { solid } from './images.ts'

describe(`files purge --unused --older-than (${STORE})`, () => {
  let t: TestApp
  let png: Buffer
  before(async () => {
    t = await startApp()
    png = await solid(40, 40, 'png')
  })
  after(() => t.close())

  async function uploadAs(token: string, daysAgo: number): Promise<string> {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'a.png')
    const res = await fetch(`${t.url}/v1/files`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })
    const { data } = (await res.json()) as { data: { path: string } }
    const createdAt = new Date(Date.now() - daysAgo * 86_400_000).toISOString()
    await t.ctx.db.updateTable('files').set({ created_at: createdAt }).where('path', '=', data.path).execute()
    return data.path
  }

  async function runPurge(olderThan: string): Promise<string[]> {
    const log = mock.method(console, 'log', () => {})
    try {
      await filesPurge.run(t.ctx, { unused: true, 'older-than': olderThan })
      return log.mock.calls.map((c) => String(c.arguments[0]))
    } finally {
      log.mock.restore()
    }
  }

  const served = async (path: string) => {
    const res = await fetch(`${t.url}/static/${path}`)
    await res.arrayBuffer()
    return res.status
  }

  it('removes old files nothing references and keeps referenced and recent ones', async () => {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const unused = await uploadAs(token, 8)
    const recent = await uploadAs(token, 1)
    const avatar = await uploadAs(token, 30)
    const background = await uploadAs(token, 30)
    const picture = await uploadAs(token, 30)
    const galleryItem = await uploadAs(token, 30)
    await t.ctx.db.updateTable('profiles').set({ avatar, bg_image: background }).where('id', '=', profile.id).execute()
    const now = nowIso()
    await t.ctx.db
      .insertInto('slots')
      .values([
        {
          profile_id: profile.id,
          type: 'picture',
          position: 0,
          data: JSON.stringify({ path: picture, link: '', size: 'large' }),
          created_at: now,
          updated_at: now,
        },
        {
          profile_id: profile.id,
          type: 'gallery',
          position: 1,
          data: JSON.stringify({ title: '', items: [{ path: galleryItem, text: '', link: '' }] }),
          created_at: now,
          updated_at: now,
        },
      ])
      .execute()

    const output = await runPurge('7d')
    assert.ok(
      output.some((line) => line.includes(`removed ${unused}`)),
      output.join('\n'),
    )
    assert.match(output.at(-1)!, /^Removed 1 unused file /)
    assert.equal(await served(unused), 404)
    for (const kept of [recent, avatar, background, picture, galleryItem]) {
      assert.equal(await served(kept), 200, kept)
    }
    const left = await t.ctx.db.selectFrom('files').select('path').where('user_id', '=', user.id).execute()
    assert.deepEqual(left.map((r) => r.path).sort(), [recent, avatar, background, picture, galleryItem].sort())
  })

  it('does not take a path that merely starts another path for a reference', async () => {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const lonely = await uploadAs(token, 10)
    const now = nowIso()
    // The slot mentions a longer string that contains the path; that is not the path itself.
    await t.ctx.db
      .insertInto('slots')
      .values({ profile_id: profile.id, type: 'text', position: 0, data: JSON.stringify({ title: `${lonely}.bak` }), created_at: now, updated_at: now })
      .execute()
    const output = await runPurge('7d')
    assert.ok(output.some((line) => line.includes(`removed ${lonely}`)))
  })

  it('removes temp uploads left by a process that died, and only those', async () => {
    const dir = join(t.ctx.config.dataDir, 'tmp')
    mkdirSync(dir, { recursive: true })
    const stale = join(dir, 'upload-stale')
    const live = join(dir, 'upload-live')
    writeFileSync(stale, 'half an upload')
    writeFileSync(live, 'an upload in progress')
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000)
    utimesSync(stale, twoHoursAgo, twoHoursAgo)
    const output = await runPurge('7d')
    assert.ok(output.includes('removed leftover temp upload upload-stale'), output.join('\n'))
    assert.equal(existsSync(stale), false)
    assert.equal(existsSync(live), true)
  })

  it('refuses an age it cannot read', async () => {
    await assert.rejects(filesPurge.run(t.ctx, { unused: true, 'older-than': 'a week' }), /--older-than/)
  })
})

describe('parseAge', () => {
  it('reads seconds, minutes, hours, days and weeks', () => {
    assert.equal(parseAge('90s'), 90_000)
    assert.equal(parseAge('30m'), 1_800_000)
    assert.equal(parseAge('12h'), 43_200_000)
    assert.equal(parseAge('7d'), 604_800_000)
    assert.equal(parseAge('2w'), 1_209_600_000)
    assert.equal(parseAge('7'), undefined)
    assert.equal(parseAge('-1d'), undefined)
  })
})
