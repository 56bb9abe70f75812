import { type Kysely, sql } from 'kysely'

// Frozen in time: imports nothing from src/. Account analytics lists where the visits
// of all of an account's pages came from. Summed from the pages' rows at query time, 100 pages
// of a year are some 400,000 rows to group (over a second on SQLite); these tables keep the
// same counters per account (the pages' owner), added to at intake beside the pages' ones, so
// a year reads some 12 × N rows again. Filled here from the pages' rows already stored.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('analytics_account_breakdown_daily')
    .ifNotExists()
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_account_breakdown_daily_pk', ['user_id', 'day', 'dimension', 'value'])
    .execute()
  await db.schema.createIndex('analytics_account_breakdown_daily_day').ifNotExists().on('analytics_account_breakdown_daily').column('day').execute()

  await db.schema
    .createTable('analytics_account_breakdown_monthly')
    .ifNotExists()
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_account_breakdown_monthly_pk', ['user_id', 'month', 'dimension', 'value'])
    .execute()
  await db.schema.createIndex('analytics_account_breakdown_monthly_month').ifNotExists().on('analytics_account_breakdown_monthly').column('month').execute()

  await sql`DELETE FROM analytics_account_breakdown_daily`.execute(db)
  await sql`INSERT INTO analytics_account_breakdown_daily (user_id, day, dimension, value, views, clicks)
    SELECT p.user_id, b.day, b.dimension, b.value, SUM(b.views), SUM(b.clicks)
    FROM analytics_breakdown_daily b JOIN profiles p ON p.id = b.profile_id
    GROUP BY p.user_id, b.day, b.dimension, b.value`.execute(db)
  await sql`DELETE FROM analytics_account_breakdown_monthly`.execute(db)
  await sql`INSERT INTO analytics_account_breakdown_monthly (user_id, month, dimension, value, views, clicks)
    SELECT p.user_id, b.month, b.dimension, b.value, SUM(b.views), SUM(b.clicks)
    FROM analytics_breakdown_monthly b JOIN profiles p ON p.id = b.profile_id
    GROUP BY p.user_id, b.month, b.dimension, b.value`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analytics_account_breakdown_monthly').ifExists().execute()
  await db.schema.dropTable('analytics_account_breakdown_daily').ifExists().execute()
}
