import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: imports nothing from src/. Daily rollups in the page owner's time zone;
// `day` is a YYYY-MM-DD text so ranges compare as strings on both engines. `visitors` is a
// serialised HyperLogLog sketch (no raw addresses or visitor keys are stored). Slot ids carry no
// foreign key: a deleted slot's clicks stay in the page totals (spec: they leave the block list).
export async function up(db: Kysely<any>): Promise<void> {
  const blob = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob'

  await db.schema
    .createTable('analytics_daily')
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visitors', blob as any, (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_daily_pk', ['profile_id', 'day'])
    .execute()
  await db.schema.createIndex('analytics_daily_day').on('analytics_daily').column('day').execute()

  await db.schema
    .createTable('analytics_slot_daily')
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('slot_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visitors', blob as any, (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_slot_daily_pk', ['profile_id', 'day', 'slot_id'])
    .execute()
  await db.schema.createIndex('analytics_slot_daily_day').on('analytics_slot_daily').column('day').execute()

  await db.schema
    .createTable('analytics_social_daily')
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('social_index', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_social_daily_pk', ['profile_id', 'day', 'social_index'])
    .execute()
  await db.schema.createIndex('analytics_social_daily_day').on('analytics_social_daily').column('day').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['analytics_social_daily', 'analytics_slot_daily', 'analytics_daily']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
