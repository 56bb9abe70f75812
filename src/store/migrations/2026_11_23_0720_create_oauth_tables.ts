import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: imports nothing from src/. OAuth 2.1: public clients (registered,
// or identified by a metadata document URL), the user's grant to each, single-use codes, and
// the OAuth tokens themselves, which live in `tokens` beside personal tokens (one verifier; a
// disconnect is a delete). Codes and tokens are stored as SHA-256 digests only.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter
  const id = (t: any) =>
    pg ? t.addColumn('id', 'serial', (c: any) => c.primaryKey()) : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement())

  await db.schema
    .createTable('oauth_clients')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('metadata_url', 'text')
    .addColumn('metadata_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute()

  await id(db.schema.createTable('oauth_grants'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c: any) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
    .addColumn('scopes', 'text', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addUniqueConstraint('oauth_grants_user_client', ['user_id', 'client_id'])
    .execute()

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'integer', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute()

  // kind: personal | access | refresh. family: the code an OAuth token descends from, so a
  // replayed code or refresh token revokes everything issued from it.
  await db.schema
    .alterTable('tokens')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('personal'))
    .execute()
  await db.schema
    .alterTable('tokens')
    .addColumn('grant_id', 'integer', (c) => c.references('oauth_grants.id').onDelete('cascade'))
    .execute()
  await db.schema.alterTable('tokens').addColumn('expires_at', 'text').execute()
  await db.schema.alterTable('tokens').addColumn('resource', 'text').execute()
  await db.schema.alterTable('tokens').addColumn('family', 'text').execute()
  await db.schema.alterTable('tokens').addColumn('rotated_at', 'text').execute()
  await db.schema.createIndex('tokens_grant_id').on('tokens').column('grant_id').execute()
  await db.schema.createIndex('tokens_family').on('tokens').column('family').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('tokens').where('kind', '!=', 'personal').execute()
  await db.schema.dropIndex('tokens_family').ifExists().execute()
  await db.schema.dropIndex('tokens_grant_id').ifExists().execute()
  for (const column of ['rotated_at', 'family', 'resource', 'expires_at', 'grant_id', 'kind']) {
    await db.schema.alterTable('tokens').dropColumn(column).execute()
  }
  await db.schema.dropTable('oauth_codes').ifExists().execute()
  await db.schema.dropTable('oauth_grants').ifExists().execute()
  await db.schema.dropTable('oauth_clients').ifExists().execute()
}
