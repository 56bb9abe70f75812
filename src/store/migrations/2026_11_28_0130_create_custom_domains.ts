import { type Kysely, PostgresAdapter, sql } from 'kysely'

// Frozen in time: imports nothing from src/. A page's own domain: a name proven by a TXT record,
// then served while its DNS keeps pointing here. A released domain keeps its row (state
// 'removed') so its owner can read what happened; the unique indexes only count the live ones,
// so a released name or page can be connected again.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter
  const table = db.schema.createTable('custom_domains').ifNotExists()
  await (pg ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('problem', 'text')
    .addColumn('checked_at', 'text')
    .addColumn('verified_at', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('custom_domains_live_name')
    .ifNotExists()
    .unique()
    .on('custom_domains')
    .column('name')
    .where(sql.ref('state'), '<>', 'removed')
    .execute()
  await db.schema
    .createIndex('custom_domains_live_profile')
    .ifNotExists()
    .unique()
    .on('custom_domains')
    .column('profile_id')
    .where(sql.ref('state'), '<>', 'removed')
    .execute()
  // The ask endpoint's one read: name and state, answered from the index alone.
  await db.schema.createIndex('custom_domains_name_state').ifNotExists().on('custom_domains').columns(['name', 'state']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('custom_domains').ifExists().execute()
}
