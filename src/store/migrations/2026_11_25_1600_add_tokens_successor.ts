import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. A rotated refresh token keeps, sealed with the
// service secret, the pair it was exchanged for, so a retry within the grace gets that same pair
// once instead of a new one (a second pair would fork the token family).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tokens').addColumn('successor', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tokens').dropColumn('successor').execute()
}
