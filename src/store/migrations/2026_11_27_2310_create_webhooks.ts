import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: imports nothing from src/. Webhook endpoints of an account and the outbox of
// their deliveries: a delivery row is written in the same transaction as the change it reports,
// so a change is never stored without its delivery, nor a delivery without its change.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter
  const endpoints = db.schema.createTable('webhook_endpoints').ifNotExists()
  await (pg ? endpoints.addColumn('id', 'serial', (c) => c.primaryKey()) : endpoints.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('profile_ids', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('disabled_reason', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('webhook_endpoints_user_id').ifNotExists().on('webhook_endpoints').column('user_id').execute()

  const deliveries = db.schema.createTable('webhook_deliveries').ifNotExists()
  await (pg ? deliveries.addColumn('id', 'serial', (c) => c.primaryKey()) : deliveries.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_response', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('webhook_deliveries_due').ifNotExists().on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute()
  await db.schema.createIndex('webhook_deliveries_endpoint').ifNotExists().on('webhook_deliveries').columns(['endpoint_id', 'id']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').ifExists().execute()
  await db.schema.dropTable('webhook_endpoints').ifExists().execute()
}
