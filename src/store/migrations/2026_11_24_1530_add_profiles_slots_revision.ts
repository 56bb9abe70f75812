import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. A counter every slot write of the page bumps in
// its own transaction, so a copy of the page's presented slots is known fresh by the profile
// row alone, on every instance, without any message between them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('profiles')
    .addColumn('slots_revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('slots_revision').execute()
}
