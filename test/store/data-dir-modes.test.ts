import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import pg from 'pg'
import pino from 'pino'
import { closeContext, createContext } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { STORE } from '../helpers/app.ts'

const modeOf = (path: string) => statSync(path).mode & 0o777

describe(`DATA_DIR created by the service (${STORE})`, () => {
  it('is 0700, and the SQLite database and the secret inside are 0600', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'slotline-modes-'))
    const dataDir = join(parent, 'nested', 'data')
    const schema = `t_modes_${process.pid}`
    const pgUrl = process.env.TEST_DATABASE_URL
    const admin = async (query: string) => {
      const client = new pg.Client({ connectionString: pgUrl })
      await client.connect()
      await client.query(query)
      await client.end()
    }
    if (pgUrl) await admin(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    const config = loadConfig({ DATA_DIR: dataDir, ...(pgUrl ? { DATABASE_URL: pgUrl } : {}) })
    const ctx = await createContext(config, { logger: pino({ level: 'silent' }), schema: pgUrl ? schema : undefined })
    try {
      assert.equal(modeOf(dataDir).toString(8), '700')
      assert.equal(modeOf(join(dataDir, 'secret.key')).toString(8), '600')
      if (!pgUrl) {
        assert.equal(modeOf(join(dataDir, 'slotline.db')).toString(8), '600')
        // WAL files take the database's mode.
        assert.equal(modeOf(join(dataDir, 'slotline.db-wal')).toString(8), '600')
      }
    } finally {
      await closeContext(ctx)
      if (pgUrl) await admin(`DROP SCHEMA ${schema} CASCADE`)
      rmSync(parent, { recursive: true, force: true })
    }
  })
})
