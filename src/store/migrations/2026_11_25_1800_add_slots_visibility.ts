import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. A block can be hidden or shown only
// within a window. The times are kept as written (ISO 8601, an offset or none): one without an
// offset is read in the owner's time zone when the page is rendered, not fixed at write time.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('slots')
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('slots').addColumn('starts_at', 'text').execute()
  await db.schema.alterTable('slots').addColumn('ends_at', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('slots').dropColumn('ends_at').execute()
  await db.schema.alterTable('slots').dropColumn('starts_at').execute()
  await db.schema.alterTable('slots').dropColumn('hidden').execute()
}
