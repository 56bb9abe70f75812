import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import pino from 'pino'
import { createContext } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { freePort } from './process.ts'

const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

async function admin(query: string) {
  const client = new pg.Client({ connectionString: pgUrl })
  await client.connect()
  await client.query(query)
  await client.end()
}

/**
 * A store of its own for code outside a test app: a child process (src/main.ts, the CLI) or a
 * second context that reads what a closed one left. A temporary DATA_DIR and, on PostgreSQL, a
 * fresh schema. A child process has only its environment, so `env` reaches the schema through the
 * connection string's search_path; `extraEnv` (port, limits) goes to the process and to `open`.
 */
export async function separateStore(store: 'sqlite' | 'postgres', dirPrefix: string, extraEnv: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `${dirPrefix}-`))
  const schema = store === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined
  if (schema) await admin(`CREATE SCHEMA ${schema}`)
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ...extraEnv,
    ...(schema ? { DATABASE_URL: `${pgUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}` } : {}),
  }
  return {
    env,
    /** A context on this store in this process; the caller closes it. `redisPrefix` isolates its Redis keys (with REDIS_URL in extraEnv). */
    open: (redisPrefix?: string) => createContext(loadConfig(env), { logger: pino({ level: 'silent' }), schema, redisPrefix }),
    async remove() {
      if (schema) await admin(`DROP SCHEMA ${schema} CASCADE`)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A separate store for a src/main.ts process (startService): a free port on 127.0.0.1 and no rate limits, since load is the point. */
export async function serviceStore(store: 'sqlite' | 'postgres', dirPrefix: string) {
  return separateStore(store, dirPrefix, {
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    RATE_LIMIT_PER_SECOND: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_ADDRESS_PER_MINUTE: '0',
  })
}

export type SeparateStore = Awaited<ReturnType<typeof separateStore>>
