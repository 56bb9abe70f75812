import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. The last period each periodic job was claimed for,
// so that a fleet of instances on one database runs each job once per period (without Redis).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_runs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('period', 'bigint', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_runs').ifExists().execute()
}
