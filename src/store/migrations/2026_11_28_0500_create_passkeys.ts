import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: imports nothing from src/. Passkeys: each credential's id and public key as
// base64url text, the signature counter the authenticator last reported, its transports (JSON
// text) and the name its owner gave it. Challenges are kept apart, bound to a digest of the
// session that asked for them, and deleted as they are used so each one works once.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter
  const passkeys = db.schema.createTable('passkeys').ifNotExists()
  await (pg ? passkeys.addColumn('id', 'serial', (c) => c.primaryKey()) : passkeys.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute()
  await db.schema.createIndex('passkeys_user').ifNotExists().on('passkeys').column('user_id').execute()
  await db.schema
    .createTable('passkey_challenges')
    .ifNotExists()
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('session_hash', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('passkey_challenges').ifExists().execute()
  await db.schema.dropTable('passkeys').ifExists().execute()
}
