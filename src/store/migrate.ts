import { readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql, type TableMetadata } from 'kysely'

const folder = join(dirname(fileURLToPath(import.meta.url)), 'migrations')

/** Every file in migrations/, by name: the date prefix gives the order (.js once compiled for npm start). */
const provider: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {}
    for (const file of (await readdir(folder)).sort()) {
      if (!/^\d{4}_\d{2}_\d{2}_\d{4}_[a-z0-9_]+\.[jt]s$/.test(file)) continue
      migrations[file.replace(/\.[jt]s$/, '')] = await import(pathToFileURL(join(folder, file)).href)
    }
    return migrations
  },
}

/**
 * Kysely's PostgreSQL introspector lists the tables of every schema and calls
 * has_schema_privilege() on each: a schema dropped while that query runs (another test suite
 * finishing, another tenant) fails it with 3F000. The migrator only asks whether its own two
 * bookkeeping tables exist, so it is given an introspector that looks at one schema only.
 */
function oneSchemaIntrospector(db: Kysely<any>, schema: string): DatabaseIntrospector {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string; kind: string }>`
      SELECT c.relname AS name, c.relkind AS kind FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'v', 'p')`.execute(db)
    return rows.map((r) => ({ name: r.name, schema, isView: r.kind === 'v', columns: [] }))
  }
  return {
    getSchemas: async () => [{ name: schema }],
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  }
}

/** The same database handle, answering `introspection` with the one-schema introspector. */
function scopedToSchema(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection = oneSchemaIntrospector(db, schema)
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection
      const value = Reflect.get(target, prop, target)
      // Kysely's methods read private fields, which exist on the target, not on the proxy.
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Kysely looks for its own bookkeeping tables in every schema unless told which one: with a
  // schema per test suite, a suite would find another's table, skip creating its own and fail.
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter ? (await sql<{ name: string }>`SELECT current_schema() AS name`.execute(db)).rows[0]?.name : undefined
  const migrator = new Migrator({
    db: migrationTableSchema ? scopedToSchema(db, migrationTableSchema) : db,
    provider,
    migrationTableSchema,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
