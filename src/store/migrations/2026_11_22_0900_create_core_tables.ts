import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: imports nothing from src/. Ids are serial on PostgreSQL and
// INTEGER PRIMARY KEY AUTOINCREMENT on SQLite; timestamps are ISO 8601 text on both.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter
  const id = (t: any) =>
    pg ? t.addColumn('id', 'serial', (c: any) => c.primaryKey()) : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement())

  await id(db.schema.createTable('users'))
    .addColumn('email', 'text', (c: any) => c.notNull().unique())
    .addColumn('name', 'text', (c: any) => c.notNull())
    .addColumn('password_hash', 'text', (c: any) => c.notNull())
    .addColumn('timezone', 'text', (c: any) => c.notNull().defaultTo('UTC'))
    .addColumn('language_code', 'text', (c: any) => c.notNull().defaultTo('en'))
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .execute()

  await id(db.schema.createTable('tokens'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c: any) => c.notNull())
    .addColumn('token_hash', 'text', (c: any) => c.notNull().unique())
    .addColumn('abilities', 'text', (c: any) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .execute()
  await db.schema.createIndex('tokens_user_id').on('tokens').column('user_id').execute()

  await id(db.schema.createTable('profiles'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('login', 'text', (c: any) => c.notNull())
    .addColumn('login_lower', 'text', (c: any) => c.notNull().unique())
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('avatar', 'text')
    .addColumn('bg_image', 'text')
    .addColumn('socials', 'text', (c: any) => c.notNull().defaultTo('[]'))
    .addColumn('theme_id', 'integer', (c: any) => c.notNull().defaultTo(1))
    .addColumn('language_id', 'integer')
    .addColumn('is_main', 'integer', (c: any) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c: any) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .execute()
  await db.schema.createIndex('profiles_user_id').on('profiles').column('user_id').execute()

  await id(db.schema.createTable('slots'))
    .addColumn('profile_id', 'integer', (c: any) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('type', 'text', (c: any) => c.notNull())
    .addColumn('position', 'integer', (c: any) => c.notNull())
    .addColumn('data', 'text', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .execute()
  await db.schema.createIndex('slots_profile_position').on('slots').columns(['profile_id', 'position']).execute()

  await id(db.schema.createTable('files'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('path', 'text', (c: any) => c.notNull().unique())
    .addColumn('mime', 'text', (c: any) => c.notNull())
    .addColumn('size', 'integer', (c: any) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .execute()
  await db.schema.createIndex('files_user_id').on('files').column('user_id').execute()

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute()
  await db.schema.createIndex('idempotency_keys_expires_at').on('idempotency_keys').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['idempotency_keys', 'files', 'slots', 'profiles', 'tokens', 'users']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
