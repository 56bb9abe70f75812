import { readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely'

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
  const migrator = new Migrator({ db, provider })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
