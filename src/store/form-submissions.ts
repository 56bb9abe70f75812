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

/**
 * One page of what was sent through one form slot of a page, newest first: the `limit` rows
 * with ids below `beforeId` (all when absent). Ids only grow, so a cursor of the last id seen
 * never skips or repeats a row while new ones arrive.
 */
async function pageOfSlot(db: Db, profileId: number, slotId: number, o: { beforeId?: number; limit: number }): Promise<FormSubmission[]> {
  let q = db.selectFrom('form_submissions').selectAll().where('profile_id', '=', profileId).where('slot_id', '=', slotId)
  if (o.beforeId !== undefined) q = q.where('id', '<', o.beforeId)
  const rows = await q.orderBy('id', 'desc').limit(o.limit).execute()
  return rows.map(toSubmission)
}

/** Whether anything was ever kept for this slot of this page (its slot may be gone since). */
async function existsForSlot(db: Db, profileId: number, slotId: number): Promise<boolean> {
  const row = await db.selectFrom('form_submissions').select('id').where('profile_id', '=', profileId).where('slot_id', '=', slotId).limit(1).executeTakeFirst()
  return row !== undefined
}

/** Deletes one submission of this slot of this page; false when there was none. */
async function deleteOne(db: Db, profileId: number, slotId: number, id: number): Promise<boolean> {
  const r = await db.deleteFrom('form_submissions').where('id', '=', id).where('profile_id', '=', profileId).where('slot_id', '=', slotId).executeTakeFirst()
  return Number(r.numDeletedRows) > 0
}

export const formSubmissionsRepository = Object.freeze({ insert, listOfUser, pageOfSlot, existsForSlot, deleteOne })
