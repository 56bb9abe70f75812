import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: imports nothing from src/. Two-factor codes: one authenticator per account,
// its seed sealed (AES-GCM under the service secret), the last time step used so a code works
// once, and confirmed_at set only after a typed code proved the enrolment. Recovery codes are
// stored as SHA-256 digests and used once.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter
  await db.schema
    .createTable('totp_authenticators')
    .ifNotExists()
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('last_step', 'bigint')
    .addColumn('confirmed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  const codes = db.schema.createTable('recovery_codes').ifNotExists()
  await (pg ? codes.addColumn('id', 'serial', (c) => c.primaryKey()) : codes.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('recovery_codes_user_hash').ifNotExists().on('recovery_codes').columns(['user_id', 'code_hash']).unique().execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('recovery_codes').ifExists().execute()
  await db.schema.dropTable('totp_authenticators').ifExists().execute()
}
