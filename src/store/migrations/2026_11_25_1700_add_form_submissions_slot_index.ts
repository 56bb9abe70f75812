import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. The leads inbox and its API read one form slot of
// one page, newest first; without this index each page of it scans every submission.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('form_submissions_profile_slot_id').ifNotExists().on('form_submissions').columns(['profile_id', 'slot_id', 'id']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('form_submissions_profile_slot_id').ifExists().execute()
}
