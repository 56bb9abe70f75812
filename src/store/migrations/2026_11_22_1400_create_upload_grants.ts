import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. One row per signed upload URL, so that "single
// use" holds across instances: the first upload marks used_at in one conditional UPDATE.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('upload_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('upload_grants_expires_at').on('upload_grants').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_grants').ifExists().execute()
}
