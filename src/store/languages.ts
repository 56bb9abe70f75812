import type { Selectable } from 'kysely'
import type { Db } from './db.ts'
import type { LanguagesTable } from './schema.ts'

export interface Language {
  id: number
  code: string
  name: string
  isActive: boolean
}

type Row = Selectable<LanguagesTable>

const toLanguage = (r: Row): Language => ({ id: r.id, code: r.code, name: r.name, isActive: r.is_active === 1 })

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
