import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: imports nothing from src/. The dashboard's events and forms, which event and
// form slots render from (the API reads them, never writes them).
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter
  const id = (t: any) =>
    pg ? t.addColumn('id', 'serial', (c: any) => c.primaryKey()) : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement())

  await id(db.schema.createTable('events').ifNotExists())
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c: any) => c.notNull())
    .addColumn('description', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('starts_at', 'text', (c: any) => c.notNull())
    .addColumn('ends_at', 'text')
    .addColumn('timezone', 'text', (c: any) => c.notNull().defaultTo('UTC'))
    .addColumn('location', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('link', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .execute()
  await db.schema.createIndex('events_user_id').ifNotExists().on('events').column('user_id').execute()

  await id(db.schema.createTable('forms').ifNotExists())
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c: any) => c.notNull())
    .addColumn('description', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('fields', 'text', (c: any) => c.notNull().defaultTo('[]'))
    .addColumn('submit_label', 'text', (c: any) => c.notNull().defaultTo('Send'))
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .execute()
  await db.schema.createIndex('forms_user_id').ifNotExists().on('forms').column('user_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('forms').ifExists().execute()
  await db.schema.dropTable('events').ifExists().execute()
}
