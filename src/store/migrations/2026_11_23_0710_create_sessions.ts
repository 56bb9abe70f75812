import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. Dashboard sign-in sessions when no Redis is
// configured. The key is a SHA-256 of the session id (a leaked table signs nobody in);
// user_id lets a password change or `users set-password` end every session of that user.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute()
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sessions').ifExists().execute()
}
