import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: imports nothing from src/. Single sign-on: an account is found by the
// provider's issuer and its subject for the person (never by e-mail). The e-mail the provider
// gave is kept only to show which provider account is linked.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter
  const table = db.schema.createTable('sso_identities').ifNotExists()
  await (pg ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute()
  await db.schema.createIndex('sso_identities_issuer_subject').ifNotExists().on('sso_identities').columns(['issuer', 'subject']).unique().execute()
  await db.schema.createIndex('sso_identities_user').ifNotExists().on('sso_identities').column('user_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sso_identities').ifExists().execute()
}
