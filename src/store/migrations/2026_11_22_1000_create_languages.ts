import type { Kysely } from 'kysely'

// Frozen in time: imports nothing from src/. The languages a page can render in. Ids are given
// explicitly (not serial) so a languageId means the same language on every installation.
const LANGUAGES: Array<[number, string, string]> = [
  [1, 'en', 'English'],
  [2, 'de', 'Deutsch'],
  [3, 'fr', 'Français'],
  [4, 'es', 'Español'],
  [5, 'it', 'Italiano'],
  [6, 'pt', 'Português'],
  [7, 'nl', 'Nederlands'],
  [8, 'pl', 'Polski'],
  [9, 'uk', 'Українська'],
  [10, 'ru', 'Русский'],
  [11, 'tr', 'Türkçe'],
  [12, 'sv', 'Svenska'],
  [13, 'cs', 'Čeština'],
  [14, 'ja', '日本語'],
  [15, 'ko', '한국어'],
  [16, 'zh', '中文'],
  [17, 'ar', 'العربية'],
  [18, 'hi', 'हिन्दी'],
]

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('languages')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute()
  await db
    .insertInto('languages')
    .values(LANGUAGES.map(([id, code, name]) => ({ id, code, name, is_active: 1 })))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('languages').ifExists().execute()
}
