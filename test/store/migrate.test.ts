import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import pg from 'pg'
import { openDatabase } from '../../src/store/db.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { STORE } from '../helpers/app.ts'

const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

describe('migrateToLatest on PostgreSQL', { skip: STORE !== 'postgres' && 'PostgreSQL only: the race is in its catalog' }, () => {
  it('migrates a schema while other schemas are created and dropped around it', async () => {
    const admin = new pg.Client({ connectionString: pgUrl })
    await admin.connect()
    const id = randomBytes(4).toString('hex')
    const targets = [0, 1, 2].map((i) => `m_${id}_${i}`)
    for (const s of targets) await admin.query(`CREATE SCHEMA ${s}`)
    let churning = true
    // Other suites drop their schemas while this one migrates: the introspection of every
    // schema used to fail with 3F000 when one vanished mid-query.
    const churn = (async () => {
      for (let i = 0; churning && i < 400; i++) {
        const s = `c_${id}_${i}`
        await admin.query(`CREATE SCHEMA ${s}; CREATE TABLE ${s}.a (x int); CREATE TABLE ${s}.b (y int)`)
        await admin.query(`DROP SCHEMA ${s} CASCADE`)
      }
    })()
    try {
      const applied = await Promise.all(
        targets.map(async (schema) => {
          const db = openDatabase({ databaseUrl: pgUrl, dataDir: '/nonexistent', schema })
          try {
            const names = await migrateToLatest(db)
            assert.deepEqual(await migrateToLatest(db), [], 'a second run finds nothing to do')
            return names.length
          } finally {
            await db.destroy()
          }
        }),
      )
      assert.ok(
        applied.every((n) => n > 0 && n === applied[0]),
        `every schema got every migration: ${applied}`,
      )
    } finally {
      churning = false
      await churn
      for (const s of targets) await admin.query(`DROP SCHEMA ${s} CASCADE`)
      await admin.end()
    }
  })
})
