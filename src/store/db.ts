import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import {
  type CompiledQuery,
  type Kysely as KyselyType,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  type SelectQueryBuilder,
  SqliteDialect,
  type Transaction,
} from 'kysely'
import type PgModule from 'pg'
import type { Database } from './schema.ts'

export type Db = KyselyType<Database> | Transaction<Database>

export interface OpenOptions {
  databaseUrl?: string
  dataDir: string
  /** PostgreSQL schema to use as search_path; tests give each suite its own. */
  schema?: string
  /** SQLite file name inside dataDir (":memory:" for none). */
  sqliteFile?: string
}

let pgLoaded: typeof PgModule | undefined
/** The PostgreSQL driver loads only for a DATABASE_URL; SQLite starts need none of it. */
function loadPg(): typeof PgModule {
  if (!pgLoaded) {
    pgLoaded = createRequire(import.meta.url)('pg') as typeof PgModule
    // PostgreSQL COUNT(*) and SUM() are bigint; our counts fit in a JS number.
    pgLoaded.types.setTypeParser(20, (v) => Number(v))
  }
  return pgLoaded
}

export function openDatabase(options: OpenOptions): Kysely<Database> {
  if (options.databaseUrl) {
    const pool = new (loadPg().Pool)({
      connectionString: options.databaseUrl,
      max: 10,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
    })
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
    pings.set(db, () => pool.query('SELECT 1'))
    return db
  }
  const file = options.sqliteFile ?? 'slotline.db'
  let target = file
  if (file !== ':memory:') {
    target = join(options.dataDir, file)
    // Accounts, token digests and form submissions live here: owner only. SQLite gives its
    // -wal and -shm files the database file's mode, so creating that one 0600 covers them.
    if (!existsSync(options.dataDir)) mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
    if (existsSync(target)) chmodSync(target, 0o600)
    else closeSync(openSync(target, 'a', 0o600))
  }
  const sqlite = new SQLite(target)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) })
  const select1 = sqlite.prepare('SELECT 1')
  pings.set(db, () => select1.get())
  return db
}

/** Each open store's `SELECT 1`, straight on its driver. */
const pings = new WeakMap<KyselyType<Database>, () => unknown>()

/**
 * Asks the store to answer a query (for /-/healthz, which probes and load balancers ask
 * often): `SELECT 1` on the driver, without the query builder, whose connection hand-over
 * cost the check several times what the query itself does. On SQLite it does not wait for a
 * transaction in progress (a read of nothing is safe beside one); it fails when the store
 * is closed or unreachable.
 */
export async function pingStore(db: KyselyType<Database>): Promise<void> {
  const ping = pings.get(db)
  if (!ping) throw new Error('not a store opened by openDatabase')
  await ping()
}

/**
 * Kysely prepares every query anew; the same few hundred SQL strings repeat, so keep their
 * prepared statements (better-sqlite3 runs each synchronously, so reuse is safe).
 */
function withStatementCache(sqlite: SQLite.Database, max = 500) {
  const cache = new Map<string, SQLite.Statement>()
  return {
    close: () => sqlite.close(),
    prepare(query: string) {
      let stmt = cache.get(query)
      if (!stmt) {
        if (cache.size >= max) cache.clear()
        stmt = sqlite.prepare(query)
        cache.set(query, stmt)
      }
      return stmt
    },
  }
}

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/** Runs fn in a transaction, or inside the one db already is. */
export async function inTransaction<T>(db: Db, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>)
  return (db as KyselyType<Database>).transaction().execute(fn)
}

export const nowIso = () => new Date().toISOString()

/** How many rows `query` selects (PostgreSQL counts in bigint; this answers a number on both). */
export async function countRows<TB extends keyof Database, O>(query: SelectQueryBuilder<Database, TB, O>): Promise<number> {
  const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(n)
}

class Param {
  constructor(readonly index: number) {}
}

/**
 * A query built and compiled once per dialect, then run with fresh arguments. Kysely rebuilds
 * and recompiles every query, which on the hottest paths (the token lookup of every request)
 * costs more than the query itself. `build` receives placeholders in place of its arguments;
 * they must be used only as values.
 */
export function prepared<A extends unknown[], O>(build: (db: KyselyType<Database>, ...args: A) => { compile(): CompiledQuery<O> }) {
  const compiled = new Map<boolean, CompiledQuery<O>>()
  return async (db: Db, ...args: A): Promise<O[]> => {
    const pg = isPostgres(db)
    let query = compiled.get(pg)
    if (!query) {
      const placeholders = args.map((_, i) => new Param(i)) as unknown as A
      query = build(db as KyselyType<Database>, ...placeholders).compile()
      compiled.set(pg, query)
    }
    const parameters = query.parameters.map((p) => (p instanceof Param ? args[p.index] : p))
    const result = await db.executeQuery<O>({ ...query, parameters })
    return result.rows
  }
}
