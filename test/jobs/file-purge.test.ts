import assert from 'node:assert/strict'
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { FILE_PURGE_JOB } from '../../src/media/file-purge.ts'
import { nowIso } from '../../src/store/db.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { solid } from '../media/images.ts'

const DAY_MS = 86_400_000

/** A test app whose log lines (info and up) are collected as parsed objects. */
async function appWithLog(): Promise<{ t: TestApp; lines: Array<Record<string, any>> }> {
  const lines: Array<Record<string, any>> = []
  const log = new PassThrough()
  log.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line))
  })
  return { t: await startApp({ LOG_LEVEL: 'info' }, { logTo: log }), lines }
}

/** Uploads an image through the API, then dates it (and its variants) `daysAgo` days back. */
async function upload(t: TestApp, token: string, image: Buffer, daysAgo: number): Promise<string> {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'a.png')
  const res = await fetch(`${t.url}/v1/files`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })
  const body = (await res.json()) as { data: { path: string } }
  assert.equal(res.status, 201, JSON.stringify(body))
  const createdAt = new Date(Date.now() - daysAgo * DAY_MS).toISOString()
  await t.ctx.db
    .updateTable('files')
    .set({ created_at: createdAt })
    .where((eb) => eb.or([eb('path', '=', body.data.path), eb('variant_of', '=', body.data.path)]))
    .execute()
  return body.data.path
}

const served = async (t: TestApp, path: string) => {
  const res = await fetch(`${t.url}/static/${path}`)
  await res.arrayBuffer()
  return res.status
}

const runFilePurge = async (t: TestApp) => {
  const tick = t.ctx.jobs.get(FILE_PURGE_JOB)
  assert.ok(tick, `${FILE_PURGE_JOB} is scheduled`)
  await tick()
}

const tempDir = (t: TestApp) => {
  const dir = join(t.ctx.config.dataDir, 'tmp')
  mkdirSync(dir, { recursive: true })
  return dir
}

/** A temp upload as a process leaves it; `hoursAgo` back-dates it. */
function tempUpload(t: TestApp, name: string, hoursAgo: number): string {
  const path = join(tempDir(t), name)
  writeFileSync(path, 'part of an upload')
  const then = new Date(Date.now() - hoursAgo * 3600_000)
  utimesSync(path, then, then)
  return path
}

describe(`the daily file purge (${STORE})`, () => {
  let t: TestApp
  let lines: Array<Record<string, any>>
  let image: Buffer
  before(async () => {
    ;({ t, lines } = await appWithLog())
    // Wide enough that the pipeline stores narrower WebP variants, which must go with their upload.
    image = await solid(1200, 600, 'png')
  })
  after(() => t.close())

  it('removes an old upload nothing uses and stale temp files, keeps referenced and recent uploads, and logs what went', async () => {
    const { user, token } = await makeAccount(t)
    const profile = await makeProfile(t, user)
    const unused = await upload(t, token, image, 40)
    const avatar = await upload(t, token, image, 40)
    const picture = await upload(t, token, image, 40)
    const recent = await upload(t, token, image, 29)
    const justNow = await upload(t, token, image, 0)
    await t.ctx.db.updateTable('profiles').set({ avatar }).where('id', '=', profile.id).execute()
    const now = nowIso()
    await t.ctx.db
      .insertInto('slots')
      .values({
        profile_id: profile.id,
        type: 'picture',
        position: 0,
        data: JSON.stringify({ path: picture, link: '', size: 'large' }),
        created_at: now,
        updated_at: now,
      })
      .execute()
    const going = await t.ctx.db
      .selectFrom('files')
      .select(['path', 'size'])
      .where((eb) => eb.or([eb('path', '=', unused), eb('variant_of', '=', unused)]))
      .execute()
    assert.ok(going.length > 1, 'the upload has variants')
    const staleTemp = tempUpload(t, 'upload-stale', 2)
    const liveTemp = tempUpload(t, 'upload-live', 0)

    await runFilePurge(t)

    assert.equal(await served(t, unused), 404)
    for (const kept of [avatar, picture, recent, justNow]) assert.equal(await served(t, kept), 200, kept)
    const left = await t.ctx.db.selectFrom('files').select('path').where('variant_of', 'is', null).execute()
    assert.deepEqual(left.map((r) => r.path).sort(), [avatar, picture, recent, justNow].sort())
    assert.equal((await t.ctx.db.selectFrom('files').select('path').where('variant_of', '=', unused).execute()).length, 0)
    assert.equal(existsSync(staleTemp), false)
    assert.equal(existsSync(liveTemp), true)

    const done = lines.filter((l) => l.job === FILE_PURGE_JOB)
    assert.deepEqual(
      done.map((l) => [l.level, l.msg, l.removed, l.bytes, l.tempRemoved]),
      [[30, `${FILE_PURGE_JOB}: done`, going.length, going.reduce((sum, f) => sum + f.size, 0), 1]],
    )
  })
})

describe(`the daily file purge when something fails (${STORE})`, () => {
  it('logs at error, by path, a stored object it could not delete, and still removes the rest', async () => {
    const { t, lines } = await appWithLog()
    try {
      const { token } = await makeAccount(t)
      const image = await solid(40, 40, 'png')
      const stuck = await upload(t, token, image, 40)
      const other = await upload(t, token, image, 40)
      // A real fault of the disk store: a directory where the object should be cannot be removed as a file.
      const object = join(t.ctx.config.dataDir, 'files', stuck)
      assert.ok(existsSync(object))
      rmSync(object)
      mkdirSync(object)
      writeFileSync(join(object, 'in-the-way'), 'x')

      await runFilePurge(t)

      assert.equal(await served(t, other), 404)
      assert.equal(existsSync(object), true)
      const mine = lines.filter((l) => l.job === FILE_PURGE_JOB)
      const failed = mine.filter((l) => l.level === 50)
      assert.equal(failed.length, 1, JSON.stringify(mine))
      assert.match(failed[0]!.msg, /1 stored object\(s\) could not be deleted/)
      assert.deepEqual(
        failed[0]!.failed.map((f: { path: string }) => f.path),
        [stuck],
      )
      assert.deepEqual(
        mine.filter((l) => l.level === 30).map((l) => l.removed),
        [2],
      )
    } finally {
      await t.close()
    }
  })

  it('logs a failed database half at error with its cause, and still clears stale temp files', async () => {
    const { t, lines } = await appWithLog()
    try {
      const staleTemp = tempUpload(t, 'upload-stale', 2)
      // A real fault: the table the purge works on is gone.
      await sql`DROP TABLE files`.execute(t.ctx.db)

      await runFilePurge(t)

      assert.equal(existsSync(staleTemp), false)
      const mine = lines.filter((l) => l.job === FILE_PURGE_JOB)
      assert.deepEqual(
        mine.map((l) => [l.level, l.msg]),
        [
          [30, `${FILE_PURGE_JOB}: done in part`],
          [50, `${FILE_PURGE_JOB}: failed; retrying in 1440 min`],
        ],
      )
      assert.equal(mine[0]!.tempRemoved, 1)
      assert.match(mine[1]!.err.message, /files/)
    } finally {
      await t.close()
    }
  })
})
