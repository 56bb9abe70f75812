import { createRequire } from 'node:module'
import type { Redis } from 'ioredis'
import { type Kysely, sql } from 'kysely'
import type { Logger } from 'pino'
import { type Config, ConfigError } from '../config.ts'
import type { Database } from './schema.ts'
import { type OpenOptions, openDatabase, pingStore } from './db.ts'

/** host:port of a connection URL: what an operator needs to see, without the password in it. */
function where(url: string): string {
  const u = new URL(url)
  return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname.length > 1 ? u.pathname : ''}`
}

// SQLSTATE classes that mean "this DATABASE_URL does not lead to a usable database": connection
// exceptions (08), authorization (28), no such database (3D000), starting up (57P03).
const isConnectionState = (code: string) => /^(08|28)/.test(code) || code === '3D000' || code === '57P03'

/** openDatabase, with an unusable DATA_DIR (SQLite) reported as a configuration error. */
export function openStore(options: OpenOptions): ReturnType<typeof openDatabase> {
  try {
    return openDatabase(options)
  } catch (err) {
    if (options.databaseUrl) throw err
    throw new ConfigError('DATA_DIR', `cannot open the SQLite store under ${options.dataDir}: ${(err as Error).message}`)
  }
}

/**
 * One query before migrations, so that a wrong DATABASE_URL (or DATA_DIR) stops the start with
 * one line naming the variable, not a driver stack. Errors after this point are real bugs and
 * keep their stack.
 */
export async function checkStore(db: Kysely<any>, config: Config): Promise<void> {
  try {
    await sql`SELECT 1`.execute(db)
  } catch (err) {
    const { code, message } = err as { code?: string; message: string }
    if (!config.databaseUrl) throw new ConfigError('DATA_DIR', `cannot open the SQLite store under ${config.dataDir}: ${message}`)
    if (typeof code === 'string' && (isConnectionState(code) || code.startsWith('E'))) {
      throw new ConfigError('DATABASE_URL', `cannot use the database at ${where(config.databaseUrl)}: ${message}${code.startsWith('E') ? '' : ` (${code})`}`)
    }
    throw err
  }
}

/**
 * Connects to REDIS_URL before the service starts: unreachable is one line naming the variable.
 * Later outages are logged as warnings while ioredis reconnects (requests that need Redis fail
 * meanwhile; /-/healthz says so).
 */
export async function connectRedis(url: string, keyPrefix: string | undefined, log: Logger): Promise<Redis> {
  // Loaded only with a REDIS_URL: a single-instance start does not carry the client.
  const { Redis: Client } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis')
  const redis = new Client(url, { keyPrefix, maxRetriesPerRequest: 2, lazyConnect: true })
  let lastError: Error | undefined
  const remember = (err: Error) => {
    lastError = err
  }
  redis.on('error', remember)
  try {
    await redis.connect()
  } catch (err) {
    redis.disconnect()
    throw new ConfigError('REDIS_URL', `cannot reach Redis at ${where(url)}: ${(lastError ?? (err as Error)).message}`)
  }
  redis.off('error', remember)
  redis.on('error', (err) => log.warn({ err: err.message }, 'redis: connection error; reconnecting'))
  return redis
}

/** What went wrong with a check, or undefined when it passed. */
async function problemOf(check: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await check()
  } catch (err) {
    return (err as Error).message
  }
}

/** Why the store or Redis cannot answer now (undefined for each that answers): /-/healthz. */
export async function connectionProblems(db: Kysely<Database>, redis: Redis | undefined): Promise<{ store?: string; redis?: string }> {
  const store = await problemOf(() => pingStore(db))
  return { store, redis: redis && (await problemOf(() => redis.ping())) }
}
