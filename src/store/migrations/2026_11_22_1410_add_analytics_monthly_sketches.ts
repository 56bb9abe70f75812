import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: imports nothing from src/. A year of daily sketches is too many bytes to read
// per query, so each month also keeps the union of its days' sketches (pages and blocks), and
// each day keeps its own estimate: a 365-day query reads a dozen month sketches, the sketches
// of the partial months at its ends, and plain numbers for its daily timeline.
export async function up(db: Kysely<any>): Promise<void> {
  const blob = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob'

  await db.schema
    .alterTable('analytics_daily')
    .addColumn('uniques', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()

  await db.schema
    .createTable('analytics_monthly')
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('visitors', blob as any, (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_monthly_pk', ['profile_id', 'month'])
    .execute()
  await db.schema.createIndex('analytics_monthly_month').on('analytics_monthly').column('month').execute()

  await db.schema
    .createTable('analytics_slot_monthly')
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('slot_id', 'integer', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('visitors', blob as any, (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_slot_monthly_pk', ['profile_id', 'month', 'slot_id'])
    .execute()
  await db.schema.createIndex('analytics_slot_monthly_month').on('analytics_slot_monthly').column('month').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analytics_slot_monthly').ifExists().execute()
  await db.schema.dropTable('analytics_monthly').ifExists().execute()
  await db.schema.alterTable('analytics_daily').dropColumn('uniques').execute()
}
