import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. Where visits come from, as daily
// counters beside the other rollups: per page, day and dimension (source, country, device,
// browser) one row per value with its views and clicks. No address, agent or Referer is kept,
// only the reduced value. Month rows hold the same sums so a year reads some 12 × N rows, not
// 365 × N (bench/analytics-query.ts measures it).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('analytics_breakdown_daily')
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_breakdown_daily_pk', ['profile_id', 'day', 'dimension', 'value'])
    .execute()
  await db.schema.createIndex('analytics_breakdown_daily_day').on('analytics_breakdown_daily').column('day').execute()

  await db.schema
    .createTable('analytics_breakdown_monthly')
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_breakdown_monthly_pk', ['profile_id', 'month', 'dimension', 'value'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analytics_breakdown_monthly').ifExists().execute()
  await db.schema.dropTable('analytics_breakdown_daily').ifExists().execute()
}
