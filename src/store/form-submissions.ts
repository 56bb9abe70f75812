import type { Selectable } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import { type Db, nowIso } from './db.ts'
import type { FormSubmissionsTable } from './schema.ts'

type Row = Selectable<FormSubmissionsTable>

export interface FormSubmission extends CamelCased<Omit<Row, 'data'>> {
  data: Record<string, string>
}

const toSubmission = <R extends Row>(r: R) => camelRow(r, { data: JSON.parse(r.data) as Record<string, string> })

async function insert(db: Db, s: Omit<FormSubmission, 'id' | 'createdAt'>): Promise<FormSubmission> {
  const row = await db
    .insertInto('form_submissions')
    .values({ form_id: s.formId, profile_id: s.profileId, slot_id: s.slotId, data: JSON.stringify(s.data), created_at: nowIso() })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toSubmission(row)
}

/** Submissions to the user's forms, oldest first (optionally one form). */
async function listOfUser(db: Db, userId: number, formId?: number): Promise<Array<FormSubmission & { formTitle: string }>> {
  let q = db
    .selectFrom('form_submissions')
    .innerJoin('forms', 'forms.id', 'form_submissions.form_id')
    .selectAll('form_submissions')
    .select('forms.title as form_title')
    .where('forms.user_id', '=', userId)
  if (formId !== undefined) q = q.where('forms.id', '=', formId)
  const rows = await q.orderBy('form_submissions.id').execute()
  return rows.map(toSubmission)
}

export const formSubmissionsRepository = Object.freeze({ insert, listOfUser })
