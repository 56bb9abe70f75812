import { type Static, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { plainText } from '../slots/shared/plain-text.ts'
import type { EventView, FormField, FormView } from '../kernel/slot-records.ts'
import { Problems } from '../slots/shared/rules.ts'
import { slotTypeOf } from '../slots/registry.ts'
import type { SlotResource } from '../slots/slot-resource.ts'
import type { Db } from '../store/db.ts'
import { eventsRepository } from '../store/events.ts'
import { formsRepository } from '../store/forms.ts'
import { type StoredProfile, profilesRepository } from '../store/profiles.ts'
import { type StoredSlot, slotsRepository } from '../store/slots.ts'
import { AppError, type FieldErrors, invalid, mergeErrors } from '../kernel/errors.ts'
import { checkSlotData } from '../slots/slot-data.ts'
import { slotService } from '../slots/slot-service.ts'
import { type ProfileKey, readProfile, type WriteOptions, writeProfile } from './unit-of-work.ts'
import { ajvErrorsToFields, compileBody } from '../kernel/validation.ts'

// The dashboard editor's own operations: what the API cannot do (event and form blocks, spec:
// "created and changed in the dashboard"; the main page) and what it does in one step that the
// API spells in two (duplicate). Same unit of work as every use case: ability, ownership, one
// transaction, dry run, page-cache announcement.

const LOCAL_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$'

/** An event as the editor sends it: wall-clock times in the owner's zone (`datetime-local`). */
export const EventInput = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200, title: 'Event name' }),
    startsAt: Type.String({ pattern: LOCAL_TIME, title: 'Starts', 'x-pattern-message': 'Give a date and a time.' }),
    endsAt: Type.String({
      pattern: `(${LOCAL_TIME})|^$`,
      default: '',
      title: 'Ends (optional)',
      'x-pattern-message': 'Give a date and a time, or leave it empty.',
    }),
    location: Type.String({ maxLength: 300, default: '', title: 'Place (optional)' }),
    description: Type.String({ maxLength: 2000, default: '', title: 'About (optional)' }),
    link: Type.String({ maxLength: 2048, default: '', title: 'Tickets or details link (optional)' }),
  },
  { additionalProperties: false },
)
export type EventInput = Static<typeof EventInput>

export const FORM_FIELD_TYPES = ['text', 'email', 'tel', 'textarea', 'checkbox'] as const
export const FORM_FIELD_TYPE_LABELS: Record<FormField['type'], string> = {
  text: 'Short text',
  email: 'E-mail address',
  tel: 'Phone number',
  textarea: 'Long text',
  checkbox: 'Checkbox',
}

/** A form as the editor sends it; field names are derived from the labels. */
export const FormInput = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200, title: 'Form title' }),
    description: Type.String({ maxLength: 2000, default: '', title: 'Introduction (optional)' }),
    submitLabel: Type.String({ maxLength: 60, default: '', title: 'Send button text (optional)' }),
    fields: Type.Array(
      Type.Object(
        {
          label: Type.String({ minLength: 1, maxLength: 200 }),
          type: Type.Unsafe<FormField['type']>({ type: 'string', enum: [...FORM_FIELD_TYPES] }),
          required: Type.Boolean({ default: false }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 20 },
    ),
  },
  { additionalProperties: false },
)
export type FormInput = Static<typeof FormInput>

function checked<T>(schema: Parameters<typeof compileBody>[0], value: unknown, prefix: string): { value?: T; errors: FieldErrors } {
  const validate = compileBody(schema)
  const copy = JSON.parse(JSON.stringify(value ?? {}))
  if (copy && typeof copy === 'object') Value.Default(schema, copy)
  if (validate(copy)) return { value: copy as T, errors: {} }
  return { errors: ajvErrorsToFields(validate.errors, prefix, prefix.replace(/\.$/, '')) }
}

/** The UTC instant of a wall-clock time in `zone` (the zone's offset at that moment, DST included). */
export function wallTimeToUtc(local: string, zone: string): string {
  const [date, time] = local.split('T')
  const [y, m, d] = date.split('-').map(Number)
  const [hh, mm] = time.split(':').map(Number)
  const asUtc = Date.UTC(y, m - 1, d, hh, mm)
  const offsetAt = (instant: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
      })
        .formatToParts(new Date(instant))
        .map((p) => [p.type, p.value]),
    )
    return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute)) - instant
  }
  // Two passes settle times next to a DST change on the offset in force after it.
  let instant = asUtc - offsetAt(asUtc)
  instant = asUtc - offsetAt(instant)
  return new Date(instant).toISOString()
}

/** The wall-clock `YYYY-MM-DDTHH:MM` of an instant in `zone`, for a `datetime-local` field. */
export function utcToWallTime(iso: string, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`
}

/** The event record from the editor's fields, or every problem keyed `event.<field>`. */
function eventRecord(input: unknown, zone: string): Omit<EventView, 'id'> {
  const { value, errors } = checked<EventInput>(EventInput, input, 'event.')
  if (!value) throw invalid(errors)
  const p = new Problems()
  const link = p.link('event.link', value.link)
  const startsAt = wallTimeToUtc(value.startsAt, zone)
  const endsAt = value.endsAt ? wallTimeToUtc(value.endsAt, zone) : null
  if (endsAt && endsAt < startsAt) p.add('event.endsAt', 'The event cannot end before it starts.')
  if (Object.keys(p.errors).length) throw invalid(p.errors)
  return {
    title: plainText(value.title),
    description: plainText(value.description),
    location: plainText(value.location),
    link,
    startsAt,
    endsAt,
    timezone: zone,
  }
}

const fieldName = (label: string, taken: Set<string>) => {
  const base =
    label
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || 'field'
  let name = base
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`
  taken.add(name)
  return name
}

/** The form record from the editor's fields, or every problem keyed `form.<field>`. */
function formRecord(input: unknown): Omit<FormView, 'id'> {
  const { value, errors } = checked<FormInput>(FormInput, input, 'form.')
  if (!value) throw invalid(errors)
  const taken = new Set<string>()
  return {
    title: plainText(value.title),
    description: plainText(value.description),
    submitLabel: plainText(value.submitLabel),
    fields: value.fields.map((f) => ({ name: fieldName(f.label, taken), label: plainText(f.label), type: f.type, required: f.required })),
  }
}

/** A form slot's own settings (view, style…) checked by the form type's schema, keyed `data.<field>`. */
function formSlotData(data: unknown, formId: number): Record<string, unknown> {
  const check = checkSlotData(slotTypeOf('form')!, { ...(data as object), formId }, 'data')
  if (!check.ok) throw invalid(check.errors)
  return check.data
}

const ownerZone = (principal: Principal): string => principal.user.timezone || 'UTC'

async function managedSlot(trx: Db, profile: StoredProfile, slotId: number, type: 'event' | 'form'): Promise<StoredSlot> {
  const slot = await slotService.get(trx, profile.id, slotId)
  if (slot.type !== type) throw invalid({ slot: [`Slot ${slotId} is a ${slot.type} block, not ${type === 'event' ? 'an event' : 'a form'}.`] })
  return slot
}

/** Places the page's last slot right after `afterId` (one reorder write, inside the caller's transaction). */
async function moveLastAfter(trx: Db, profile: StoredProfile, afterId: number): Promise<void> {
  const ids = (await slotsRepository.listByProfile(trx, profile.id)).map((s) => s.id)
  const last = ids.pop()!
  ids.splice(ids.indexOf(afterId) + 1, 0, last)
  await slotService.reorder(trx, profile, ids)
}

const present = (ctx: AppContext, slot: StoredSlot) => slotService.present(ctx.config, [slot])[0]

/** One of the principal's pages as stored, for the editor's preview (rendered by the public page's own renderer). */
async function page(ctx: AppContext, principal: Principal, profileKey: ProfileKey): Promise<StoredProfile> {
  return readProfile(ctx, principal, profileKey, async (_db, profile) => profile)
}

/** The event and form records behind a page's blocks, by slot id, for the editor to fill its fields. */
async function records(ctx: AppContext, principal: Principal, profileKey: ProfileKey): Promise<Map<number, unknown>> {
  return readProfile(ctx, principal, profileKey, async (db, profile) => slotService.records(db, profile.userId, await slotService.list(db, profile.id)))
}

/** A new event and its block at the end of the page. Times are wall-clock in the owner's zone. */
async function createEvent(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { event: unknown },
  options: WriteOptions = {},
): Promise<SlotResource> {
  const zone = ownerZone(principal)
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) => {
    const record = eventRecord(input.event, zone)
    const event = await eventsRepository.insert(trx, { ...record, userId: profile.userId })
    const [slot] = await slotService.appendManaged(trx, profile, [{ type: 'event', data: { eventId: event.id } }])
    return present(ctx, slot)
  })
}

/** Changes the event an event block shows. */
async function updateEvent(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { slot: number; event: unknown },
  options: WriteOptions = {},
): Promise<SlotResource> {
  const zone = ownerZone(principal)
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) => {
    await profilesRepository.lockForWrite(trx, profile.id)
    const slot = await managedSlot(trx, profile, input.slot, 'event')
    const record = eventRecord(input.event, zone)
    const eventId = Number((slot.data as { eventId: number }).eventId)
    const updated = await eventsRepository.update(trx, profile.userId, eventId, record)
    if (!updated) {
      // The event is gone (or never was this owner's): the block gets a fresh one.
      const event = await eventsRepository.insert(trx, { ...record, userId: profile.userId })
      return present(ctx, await slotsRepository.updateData(trx, slot.id, { eventId: event.id }))
    }
    return present(ctx, await slotsRepository.findById(trx, slot.id).then((s) => s!))
  })
}

/** A new form and its block at the end of the page; `data` holds the block's view and style. */
async function createForm(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { form: unknown; data: unknown },
  options: WriteOptions = {},
): Promise<SlotResource> {
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) => {
    const errors: FieldErrors = {}
    let record: Omit<FormView, 'id'> | undefined
    let data: Record<string, unknown> | undefined
    // Both halves are checked before either is refused, so one answer names every problem.
    try {
      record = formRecord(input.form)
    } catch (err) {
      if (!(err instanceof AppError) || !err.errors) throw err
      mergeErrors(errors, err.errors)
    }
    try {
      data = formSlotData(input.data, 1)
    } catch (err) {
      if (!(err instanceof AppError) || !err.errors) throw err
      mergeErrors(errors, err.errors)
    }
    if (!record || !data) throw invalid(errors)
    const form = await formsRepository.insert(trx, { ...record, userId: profile.userId })
    const [slot] = await slotService.appendManaged(trx, profile, [{ type: 'form', data: { ...data, formId: form.id } }])
    return present(ctx, slot)
  })
}

/** Changes a form block: its form (title, fields…) and its view and style. */
async function updateForm(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { slot: number; form: unknown; data: unknown },
  options: WriteOptions = {},
): Promise<SlotResource> {
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) => {
    await profilesRepository.lockForWrite(trx, profile.id)
    const slot = await managedSlot(trx, profile, input.slot, 'form')
    const errors: FieldErrors = {}
    let record: Omit<FormView, 'id'> | undefined
    let data: Record<string, unknown> | undefined
    const formId = Number((slot.data as { formId: number }).formId)
    try {
      record = formRecord(input.form)
    } catch (err) {
      if (!(err instanceof AppError) || !err.errors) throw err
      mergeErrors(errors, err.errors)
    }
    try {
      data = formSlotData(input.data, formId)
    } catch (err) {
      if (!(err instanceof AppError) || !err.errors) throw err
      mergeErrors(errors, err.errors)
    }
    if (!record || !data) throw invalid(errors)
    let id = formId
    if (!(await formsRepository.update(trx, profile.userId, formId, record))) id = (await formsRepository.insert(trx, { ...record, userId: profile.userId })).id
    return present(ctx, await slotsRepository.updateData(trx, slot.id, { ...data, formId: id }))
  })
}

/**
 * A copy of a block right below it. An event or form block gets its own copy of the event or
 * form, so changing one never changes the other; a legacy block cannot be copied.
 */
async function duplicate(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { slot: number },
  options: WriteOptions = {},
): Promise<SlotResource> {
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) => {
    const slot = await slotService.get(trx, profile.id, input.slot)
    const def = slotTypeOf(slot.type)
    if (!def) throw new AppError('read_only', { message: 'This block is of a type Slotline no longer offers: it can be moved or deleted, not copied.' })
    let data = slot.data as Record<string, unknown>
    const all = await slotService.records(trx, profile.userId, [slot])
    const record = all.get(slot.id) as (EventView & FormView) | undefined
    if (slot.type === 'event' && record) {
      const { id: _, ...copy } = record as EventView
      data = { ...data, eventId: (await eventsRepository.insert(trx, { ...copy, userId: profile.userId })).id }
    } else if (slot.type === 'form' && record) {
      const { id: _, ...copy } = record as FormView
      data = { ...data, formId: (await formsRepository.insert(trx, { ...(copy as Omit<FormView, 'id'>), userId: profile.userId })).id }
    }
    const [created] = await slotService.appendManaged(trx, profile, [{ type: slot.type, data }])
    await moveLastAfter(trx, profile, slot.id)
    return present(ctx, (await slotsRepository.findById(trx, created.id))!)
  })
}

/** Makes this page the account's main page (the one that was main stops being it). */
async function makeMain(ctx: AppContext, principal: Principal, profileKey: ProfileKey, options: WriteOptions = {}): Promise<void> {
  return writeProfile(ctx, principal, profileKey, options, async (trx, profile) => {
    await profilesRepository.lockUser(trx, profile.userId)
    for (const other of await profilesRepository.listByUser(trx, profile.userId)) {
      if (other.isMain && other.id !== profile.id) await profilesRepository.update(trx, other.id, { isMain: false })
    }
    if (!profile.isMain) await profilesRepository.update(trx, profile.id, { isMain: true })
  })
}

export const editorUseCases = Object.freeze({ page, records, createEvent, updateEvent, createForm, updateForm, duplicate, makeMain })
