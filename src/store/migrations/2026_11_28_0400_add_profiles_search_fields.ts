import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. What search results and link previews show of a
// page when its owner sets it (else its name and bio), and whether the page speaks for a person
// or an organization (the structured data search engines read).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('seo_title', 'text').execute()
  await db.schema.alterTable('profiles').addColumn('seo_description', 'text').execute()
  await db.schema
    .alterTable('profiles')
    .addColumn('seo_subject', 'text', (c) => c.notNull().defaultTo('person'))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('seo_subject').execute()
  await db.schema.alterTable('profiles').dropColumn('seo_description').execute()
  await db.schema.alterTable('profiles').dropColumn('seo_title').execute()
}
