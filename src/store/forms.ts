import type { Selectable } from 'kysely'
import type { FormView } from '../kernel/slot-records.ts'
import { camelRow } from './camel-row.ts'
import { type Db, nowIso } from './db.ts'
import type { FormsTable } from './schema.ts'

/** A dashboard form: what form slots show of it, and whose it is. */
export interface FormRecord extends FormView {
  userId: number
}

type Row = Selectable<FormsTable>

const toForm = (r: Row): FormRecord => camelRow(r, { fields: JSON.parse(r.fields) })

async function insert(db: Db, f: Omit<FormRecord, 'id'>): Promise<FormRecord> {
  const now = nowIso()
  const row = await db
    .insertInto('forms')
    .values({
      user_id: f.userId,
      title: f.title,
      description: f.description,
      fields: JSON.stringify(f.fields),
      submit_label: f.submitLabel,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toForm(row)
}

/** The user's forms among `ids`. */
async function findManyOfUser(db: Db, userId: number, ids: number[]): Promise<FormRecord[]> {
  if (!ids.length) return []
  const rows = await db
    .selectFrom('forms')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', 'in', [...new Set(ids)])
    .execute()
  return rows.map(toForm)
}

/** Changes the user's form (the editor's form fields); undefined when it is not theirs. */
async function update(db: Db, userId: number, id: number, f: Omit<FormRecord, 'id' | 'userId'>): Promise<FormRecord | undefined> {
  const row = await db
    .updateTable('forms')
    .set({ title: f.title, description: f.description, fields: JSON.stringify(f.fields), submit_label: f.submitLabel, updated_at: nowIso() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst()
  return row && toForm(row)
}

export const formsRepository = Object.freeze({ insert, update, findManyOfUser })
