import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import SQLite from 'better-sqlite3'
import { FILES_TABLE } from '../../src/backup/backup-file.ts'
import { backupSqliteStore } from '../../src/backup/sqlite-backup.ts'
import { restoreSqliteStore } from '../../src/backup/sqlite-restore.ts'
import { EXIT } from '../../src/cli/command.ts'
import { loadConfig } from '../../src/config.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { cli } from '../helpers/process.ts'
import { BROWSER_UA, uploadImage } from '../pages/page-fixtures.ts'

// Backup and restore are SQLite's (PostgreSQL has pg_dump); under the PostgreSQL run this suite
// still runs on SQLite stores of its own, and checks that a DATABASE_URL is refused.
const PUBLIC_URL = 'http://backup.slotline.test'

describe(`cli backup and restore (SQLite stores; ${STORE} run)`, () => {
  let t: TestApp
  let token: string
  let profileId: number
  let files: Array<{ path: string; src: string }>
  const dirs: string[] = []
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), `slotline-${prefix}-`))
    dirs.push(dir)
    return dir
  }
  const opened: TestApp[] = []

  before(async () => {
    t = await startApp({ PUBLIC_URL }, { store: 'sqlite' })
    const account = await makeAccount(t)
    token = account.token
    const profile = await makeProfile(t, account.user)
    profileId = profile.id
    files = [await uploadImage(t, account.user, 64, 64, '#112233', '#445566'), await uploadImage(t, account.user, 80, 40, '#aa0000', '#00aa00')]
    const set = await t.request('PATCH', `/v1/profiles/${profileId}`, { token, body: { title: 'Backed up', avatar: files[0].path } })
    assert.equal(set.status, 200)
    const slot = await t.request('POST', `/v1/profiles/${profileId}/slots`, { token, body: { type: 'picture', data: { path: files[1].path } } })
    assert.equal(slot.status, 201)
  })
  after(async () => {
    for (const app of opened) await app.close()
    await t.close()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  const env = (dataDir: string) => ({ DATA_DIR: dataDir, PUBLIC_URL })
  async function restoredApp(backupFile: string): Promise<TestApp> {
    const dataDir = join(tempDir('restored'), 'data')
    const res = await cli(['restore', '--from', backupFile], env(dataDir))
    assert.equal(res.code, EXIT.ok, res.stderr)
    assert.match(res.stdout, /Restored the store of .* and 2 uploads into /)
    const app = await startApp({ DATA_DIR: dataDir, PUBLIC_URL }, { store: 'sqlite' })
    opened.push(app)
    return app
  }
  const view = async (app: TestApp) => {
    const get = async (path: string) => {
      const res = await app.request('GET', path, { token })
      assert.equal(res.status, 200, path)
      return res.text
    }
    return {
      profiles: await get('/v1/profiles'),
      page: await get(`/v1/profiles/${profileId}?include=slots`),
      settings: await get(`/v1/profiles/${profileId}/settings`),
      markdown: await get(`/v1/profiles/${profileId}/markdown`),
      // meta.generatedAt is the time of the answer, not of the data.
      analytics: JSON.stringify({ ...JSON.parse(await get(`/v1/profiles/${profileId}/analytics?period=last28`)), meta: undefined }),
      me: await get('/v1/me'),
    }
  }

  it('backs up during parallel batch writes: the restore holds whole batches only, each as the live store has it', async () => {
    let writing = true
    let batches = 0
    // Each writer fills pages of its own, three slots a batch, a new page before the slot limit.
    const writer = async (w: number) => {
      for (let page = 0; writing; page++) {
        const created = await t.request('POST', '/v1/profiles', { token, body: { login: `writer${w}_${page}_${process.pid}` } })
        assert.equal(created.status, 201)
        for (let n = 0; writing && n < 150; n++) {
          const slots = [0, 1, 2].map((k) => ({ type: 'text', data: { title: `w${w} p${page} b${n} s${k}` } }))
          const res = await t.request('POST', `/v1/profiles/${created.body.data.id}/slots/batch`, { token, body: { slots } })
          assert.equal(res.status, 201)
          batches++
        }
      }
    }
    const writers = [writer(0), writer(1), writer(2)]
    while (batches < 10) await new Promise((r) => setTimeout(r, 20))
    const file = join(tempDir('backup'), 'during-writes.slotline')
    const res = await cli(['backup', '--to', file], env(t.ctx.config.dataDir))
    writing = false
    await Promise.all(writers)
    assert.equal(res.code, EXIT.ok, res.stderr)
    assert.match(res.stdout, /Backed up the store \(migration \d{4}_.*\), 2 uploads \(.* MB\), the generated secret key to /)
    assert.ok(batches > 10, 'writes went on while the backup ran')

    const restored = await restoredApp(file)
    const pagesOf = async (app: TestApp) => {
      const list = (await app.request('GET', '/v1/profiles', { token })).body.data as Array<{ id: number }>
      return Promise.all(list.map(async (p) => (await app.request('GET', `/v1/profiles/${p.id}?include=slots`, { token })).body.data))
    }
    const live = await pagesOf(t)
    const copy = await pagesOf(restored)
    const ids = (pages: Array<{ slots: Array<{ id: number }> }>) => pages.flatMap((p) => p.slots.map((s) => s.id))
    const lastId = Math.max(...ids(copy))
    // SQLite commits one writer at a time and ids grow with commits: the copy of one instant is
    // exactly the live pages and slots up to its newest slot, every batch whole.
    assert.deepEqual(
      copy,
      live.filter((p) => p.id <= Math.max(...copy.map((c) => c.id))).map((p) => ({ ...p, slots: p.slots.filter((s: { id: number }) => s.id <= lastId) })),
    )
    for (const page of copy.slice(1)) assert.equal(page.slots.length % 3, 0, `page ${page.id}`)
    assert.ok(ids(copy).length < ids(live).length, 'the backup is of an instant before the last writes')
  })

  it('restores a quiet store to an identical API view, uploads served by the restored service, same secret', async () => {
    const intake = t.ctx.intake
    for (let i = 0; i < 5; i++) intake.view({ profileId, ip: `198.51.100.${i}`, userAgent: BROWSER_UA })
    await intake.flush()
    const file = join(tempDir('backup'), 'quiet.slotline')
    const res = await cli(['backup', '--to', file], env(t.ctx.config.dataDir))
    assert.equal(res.code, EXIT.ok, res.stderr)
    const restored = await restoredApp(file)

    assert.deepEqual(await view(restored), await view(t))
    assert.match((await view(restored)).analytics, /"views":5/)
    for (const { path } of files) {
      const [a, b] = await Promise.all([fetch(`${t.url}/static/${path}`), fetch(`${restored.url}/static/${path}`)])
      assert.equal(b.status, 200, path)
      assert.deepEqual(Buffer.from(await b.arrayBuffer()), Buffer.from(await a.arrayBuffer()))
    }
    const secret = (app: TestApp) => readFileSync(join(app.ctx.config.dataDir, 'secret.key'), 'utf8')
    assert.equal(secret(restored), secret(t))
    // The backup's own tables stay in the backup.
    const tables = new SQLite(join(restored.ctx.config.dataDir, 'slotline.db'), { readonly: true })
    const names = tables.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'slotline_backup%'").all()
    tables.close()
    assert.deepEqual(names, [])
  })

  it('refuses to overwrite a file, a non-empty DATA_DIR, a file that is not a backup, and PostgreSQL', async () => {
    const dir = tempDir('refusals')
    const existing = join(dir, 'exists.slotline')
    writeFileSync(existing, 'keep me')
    const config = (over: Record<string, string>) => loadConfig({ DATA_DIR: t.ctx.config.dataDir, ...over })
    await assert.rejects(backupSqliteStore(config({}), existing), { name: 'Error', message: /--to: .* exists already/ })
    assert.equal(readFileSync(existing, 'utf8'), 'keep me')
    await assert.rejects(restoreSqliteStore(config({ DATA_DIR: dir }), existing), { message: /DATA_DIR: .* is not empty/ })
    const fresh = join(dir, 'fresh')
    await assert.rejects(restoreSqliteStore(config({ DATA_DIR: fresh }), join(t.ctx.config.dataDir, 'slotline.db')), { message: /is not a Slotline backup/ })
    assert.equal(existsSync(fresh) && readdirSync(fresh).length, false)
    const onPostgres = config({ DATABASE_URL: 'postgres://postgres@127.0.0.1:9/none' })
    await assert.rejects(restoreSqliteStore(onPostgres, existing), { message: /DATABASE_URL: .*pg_restore/ })

    // The CLI turns these into exit 2 with the reason on stderr, before any connection is tried
    // (port 9 on loopback has nothing behind it).
    const res = await cli(['backup', '--to', join(dir, 'pg.slotline')], { ...env(dir), DATABASE_URL: 'postgres://postgres@127.0.0.1:9/none' })
    assert.equal(res.code, EXIT.usage)
    assert.match(res.stderr, /DATABASE_URL: .*pg_dump/)
  })

  it('fails a restore whose upload does not match its SHA-256, leaving DATA_DIR empty', async () => {
    const file = join(tempDir('backup'), 'damaged.slotline')
    await backupSqliteStore(loadConfig({ DATA_DIR: t.ctx.config.dataDir }), file)
    const db = new SQLite(file)
    db.prepare(`UPDATE ${FILES_TABLE} SET content = zeroblob(length(content)) WHERE path = ?`).run(files[1].path)
    db.close()
    const dataDir = join(tempDir('damaged'), 'data')
    await assert.rejects(restoreSqliteStore(loadConfig({ DATA_DIR: dataDir }), file), { message: /does not match its manifest/ })
    assert.deepEqual(readdirSync(dataDir), [])
  })
})
