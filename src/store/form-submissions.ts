import { type Db, nowIso } from './db.ts'

export interface FormSubmission {
  id: number
  formId: number
  profileId: number
  slotId: number
  data: Record<string, string>
  createdAt: string
}

async function insert(db: Db, s: Omit<FormSubmission, 'id' | 'createdAt'>): Promise<FormSubmission> {
  const row = await db
    .insertInto('form_submissions')
    .values({ form_id: s.formId, profile_id: s.profileId, slot_id: s.slotId, data: JSON.stringify(s.data), created_at: nowIso() })
    .returningAll()
    .executeTakeFirstOrThrow()
  return { id: row.id, formId: row.form_id, profileId: row.profile_id, slotId: row.slot_id, data: JSON.parse(row.data), createdAt: row.created_at }
}

/** Submissions to the user's forms, oldest first (optionally one form). */
async function listOfUser(db: Db, userId: number, formId?: number): Promise<Array<FormSubmission & { formTitle: string }>> {
  let q = db
    .selectFrom('form_submissions')
    .innerJoin('forms', 'forms.id', 'form_submissions.form_id')
    .select([
      'form_submissions.id',
      'form_submissions.form_id',
      'form_submissions.profile_id',
      'form_submissions.slot_id',
      'form_submissions.data',
      'form_submissions.created_at',
      'forms.title',
    ])
    .where('forms.user_id', '=', userId)
  if (formId !== undefined) q = q.where('forms.id', '=', formId)
  const rows = await q.orderBy('form_submissions.id').execute()
  return rows.map((r) => ({
    id: r.id,
    formId: r.form_id,
    profileId: r.profile_id,
    slotId: r.slot_id,
    data: JSON.parse(r.data),
    createdAt: r.created_at,
    formTitle: r.title,
  }))
}

export const formSubmissionsRepository = Object.freeze({ insert, listOfUser })
