import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. Account analytics sums the counters of
// every page of an account. Read through the primary keys alone, each row costs a jump into the
// table, and a day row there holds its visitor sketch (kilobytes, overflow pages on SQLite) in
// front of `uniques`; these indexes hold every column those queries read, so they never leave
// the index (docs/decisions/analytics-covering-indexes.md).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('analytics_daily_counts')
    .ifNotExists()
    .on('analytics_daily')
    .columns(['profile_id', 'day', 'views', 'clicks', 'uniques'])
    .execute()
  await db.schema
    .createIndex('analytics_breakdown_daily_counts')
    .ifNotExists()
    .on('analytics_breakdown_daily')
    .columns(['profile_id', 'day', 'dimension', 'value', 'views', 'clicks'])
    .execute()
  await db.schema
    .createIndex('analytics_breakdown_monthly_counts')
    .ifNotExists()
    .on('analytics_breakdown_monthly')
    .columns(['profile_id', 'month', 'dimension', 'value', 'views', 'clicks'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('analytics_breakdown_monthly_counts').ifExists().execute()
  await db.schema.dropIndex('analytics_breakdown_daily_counts').ifExists().execute()
  await db.schema.dropIndex('analytics_daily_counts').ifExists().execute()
}
