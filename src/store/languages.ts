import type { Selectable } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import type { Db } from './db.ts'
import type { LanguagesTable } from './schema.ts'

type Row = Selectable<LanguagesTable>

export interface Language extends CamelCased<Omit<Row, 'is_active'>> {
  isActive: boolean
}

const toLanguage = (r: Row): Language => camelRow(r, { isActive: r.is_active === 1 })

/** The languages a page may be set to, in id order. */
async function listActive(db: Db): Promise<Language[]> {
  const rows = await db.selectFrom('languages').selectAll().where('is_active', '=', 1).orderBy('id').execute()
  return rows.map(toLanguage)
}

async function findById(db: Db, id: number): Promise<Language | undefined> {
  const row = await db.selectFrom('languages').selectAll().where('id', '=', id).executeTakeFirst()
  return row && toLanguage(row)
}

/** Codes are stored lower-case; `EN` and `en` name the same language. */
async function findByCode(db: Db, code: string): Promise<Language | undefined> {
  const row = await db.selectFrom('languages').selectAll().where('code', '=', code.toLowerCase()).executeTakeFirst()
  return row && toLanguage(row)
}

export const languagesRepository = Object.freeze({ listActive, findById, findByCode })
