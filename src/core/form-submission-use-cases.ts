import { type Static, Type } from '@sinclair/typebox'
import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { resolveProfileKey } from '../profiles/profile-key.ts'
import { FORM_SLOT_TYPE } from '../slots/shared/form-submission.ts'
import type { Db } from '../store/db.ts'
import { formSubmissionsRepository } from '../store/form-submissions.ts'
import { formsRepository } from '../store/forms.ts'
import type { StoredProfile } from '../store/profiles.ts'
import { slotsRepository } from '../store/slots.ts'
import { invalidField, notFound } from '../kernel/errors.ts'
import { Nullable } from '../kernel/schema-helpers.ts'
import { type ProfileKey, readProfile, type WriteOptions, writeAccount } from './unit-of-work.ts'

// Leads: what visitors sent through a form slot of a page, for its owner to read and clear.

export const SUBMISSIONS_PAGE_MAX = 100
export const SUBMISSIONS_PAGE_DEFAULT = 25

export const SubmissionsQuery = Type.Object(
  {
    cursor: Type.Optional(
      Type.String({ maxLength: 64, description: 'meta.nextCursor of the previous page; omit for the newest submissions.', examples: ['MTIz'] }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SUBMISSIONS_PAGE_MAX,
        default: SUBMISSIONS_PAGE_DEFAULT,
        description: `Submissions per page, 1 to ${SUBMISSIONS_PAGE_MAX}.`,
      }),
    ),
  },
  { additionalProperties: false },
)
export type SubmissionsQuery = Static<typeof SubmissionsQuery>

export const FormSubmission = Type.Object(
  {
    id: Type.Integer({ description: 'The submission id; higher is newer.' }),
    slotId: Type.Integer({ description: 'The form slot it was sent through.' }),
    formId: Type.Integer({ description: 'The dashboard form the slot showed.' }),
    createdAt: Type.String({ format: 'date-time', description: 'When it arrived (UTC).' }),
    data: Type.Record(Type.String(), Type.String(), { description: 'Field name → what the visitor typed (checkboxes: "yes" or "no").' }),
  },
  { additionalProperties: false },
)
export type FormSubmission = Static<typeof FormSubmission>

export const SubmissionsForm = Nullable(
  Type.Object(
    {
      id: Type.Integer(),
      title: Type.String(),
      fields: Type.Array(Type.Object({ name: Type.String(), label: Type.String(), type: Type.String() }, { additionalProperties: false })),
    },
    { additionalProperties: false, description: 'The form the slot shows now, for its field labels; null when the slot or its form is gone.' },
  ),
)

export type SubmissionsFormView = Static<typeof SubmissionsForm>

export const SubmissionsMeta = Type.Object(
  {
    nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next (older) page; null on the last page.' })),
    limit: Type.Integer(),
  },
  { additionalProperties: false },
)

export interface SubmissionsPage {
  submissions: FormSubmission[]
  form: Static<typeof SubmissionsForm>
  nextCursor: string | null
  limit: number
}

/** Ids are 32-bit in PostgreSQL: a larger number names no row (and must not reach the driver). */
const isRowId = (n: number) => Number.isSafeInteger(n) && n >= 1 && n <= 2_147_483_647

// The cursor is the last id seen, written opaquely so clients do not build their own.
const encodeCursor = (id: number) => Buffer.from(`s${id}`, 'utf8').toString('base64url')
function decodeCursor(cursor: string): number {
  const m = /^s([1-9]\d{0,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  const id = m ? Number(m[1]) : Number.NaN
  if (!isRowId(id)) throw invalidField('cursor', 'This cursor is not one we gave out: pass meta.nextCursor of the previous page, or omit it for the newest.')
  return id
}

/**
 * The form slot `slotId` of the page: the form it shows now, or null when the slot or its form is
 * gone but submissions sent through it remain. Anything else is not_found.
 */
async function formOfSlot(db: Db, profile: StoredProfile, slotId: number): Promise<Static<typeof SubmissionsForm>> {
  const slot = isRowId(slotId) ? await slotsRepository.findInProfile(db, profile.id, slotId) : undefined
  if (slot?.type === FORM_SLOT_TYPE) {
    const formId = Number((slot.data as { formId?: unknown }).formId)
    const [form] = await formsRepository.findManyOfUser(db, profile.userId, [formId])
    return form ? { id: form.id, title: form.title, fields: form.fields.map((f) => ({ name: f.name, label: f.label, type: f.type })) } : null
  }
  if (!slot && isRowId(slotId) && (await formSubmissionsRepository.existsForSlot(db, profile.id, slotId))) return null
  throw notFound('form slot', `This page has no form slot ${slotId}. {{slots.list}} lists its slots; form slots have type "form".`)
}

const toResource = (s: { id: number; slotId: number; formId: number; createdAt: string; data: Record<string, string> }): FormSubmission => ({
  id: s.id,
  slotId: s.slotId,
  formId: s.formId,
  createdAt: s.createdAt,
  data: s.data,
})

/** What was sent through one form slot of the page, newest first, one page at a time. */
async function list(ctx: AppContext, principal: Principal, profileKey: ProfileKey, slotId: number, query: SubmissionsQuery = {}): Promise<SubmissionsPage> {
  return readProfile(ctx, principal, profileKey, async (db, profile) => {
    const form = await formOfSlot(db, profile, slotId)
    const limit = query.limit ?? SUBMISSIONS_PAGE_DEFAULT
    const beforeId = query.cursor ? decodeCursor(query.cursor) : undefined
    // One more than asked tells whether an older page exists without counting.
    const rows = await formSubmissionsRepository.pageOfSlot(db, profile.id, slotId, { beforeId, limit: limit + 1 })
    const page = rows.slice(0, limit)
    const nextCursor = rows.length > limit ? encodeCursor(page[page.length - 1].id) : null
    return { submissions: page.map(toResource), form, nextCursor, limit }
  })
}

/** Deletes one submission of a form slot of the page (a lead dealt with, or spam). */
async function remove(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  slotId: number,
  submissionId: number,
  options: WriteOptions = {},
): Promise<void> {
  // A submission is not part of what the page shows: no page cache to announce to.
  return writeAccount(ctx, principal, options, async (trx) => {
    const profile = await resolveProfileKey(trx, principal.user.id, profileKey)
    await formOfSlot(trx, profile, slotId)
    const gone = isRowId(submissionId) && (await formSubmissionsRepository.deleteOne(trx, profile.id, slotId, submissionId))
    if (!gone) throw notFound('submission', 'This submission does not exist, or was deleted already.')
  })
}

export const formSubmissionUseCases = Object.freeze({ list, remove })
