import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. Music lookup answers kept for a day, so repeated
// lookups of one release do not spend the upstreams' rate limits. `key` is a hash of
// the normalised query; `result` is the answer as JSON text.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('music_lookups')
    .ifNotExists()
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('music_lookups_expires_at').ifNotExists().on('music_lookups').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('music_lookups').ifExists().execute()
}
