import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. What a user approved, remembered per grant: each
// redirect URI with its resource and scopes, and a digest of the client's redirect URIs as they
// were then (a metadata-document client that changes them is asked again). Grants from before
// have neither and are asked once more.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_grants').addColumn('consented', 'text').execute()
  await db.schema.alterTable('oauth_grants').addColumn('client_redirects', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_grants').dropColumn('client_redirects').execute()
  await db.schema.alterTable('oauth_grants').dropColumn('consented').execute()
}
