import { readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely'

const folder = join(dirname(fileURLToPath(import.meta.url)), 'migrations')

/** Every file in migrations/, by name: the date prefix gives the order. */
const provider: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {}
    for (const file of (await readdir(folder)).sort()) {
      if (!/^\d{4}_\d{2}_\d{2}_\d{4}_[a-z0-9_]+\.ts$/.test(file)) continue
      migrations[file.replace(/\.ts$/, '')] = await import(pathToFileURL(join(folder, file)).href)
    }
    return migrations
  },
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Kysely looks for its own bookkeeping tables in every schema unless told which one: with a
  // schema per test suite, a suite would find another's table, skip creating its own and fail.
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ name: string }>`SELECT current_schema() AS name`.execute(db)).rows[0]?.name
      : undefined
  const migrator = new Migrator({ db, provider, migrationTableSchema })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
