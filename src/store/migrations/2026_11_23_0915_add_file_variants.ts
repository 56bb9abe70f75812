import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. An upload's WebP variants are
// rows of `files` too, naming the upload they were made from in `variant_of`: rows are what a
// backup copies and what purges and page deletions return, so variants travel and go with their
// upload without either of those knowing about them. NULL for uploads themselves.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('files').addColumn('variant_of', 'text').execute()
  await db.schema.createIndex('files_variant_of').on('files').column('variant_of').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('files').where('variant_of', 'is not', null).execute()
  await db.schema.dropIndex('files_variant_of').ifExists().execute()
  await db.schema.alterTable('files').dropColumn('variant_of').execute()
}
