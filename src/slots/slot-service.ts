import type { Config } from '../config.ts'
import { AppError, type FieldErrors, invalid, mergeErrors, notFound } from '../kernel/errors.ts'
import { limits } from '../kernel/limits.ts'
import { publicFileUrl } from '../media/file-url.ts'
import { slotTypeOf } from './registry.ts'
import { type SlotResource, toSlotResource, unsupportedMessage } from './slot-resource.ts'
import type { AnySlotTypeDef, FileRef, RecordRef } from './types.ts'
import type { Db } from '../store/db.ts'
import { eventsRepository } from '../store/events.ts'
import { filesRepository } from '../store/files.ts'
import { formsRepository } from '../store/forms.ts'
import type { StoredProfile } from '../store/profiles.ts'
import { profilesRepository } from '../store/profiles.ts'
import { type StoredSlot, slotsRepository } from '../store/slots.ts'
import { usersRepository } from '../store/users.ts'
import { ALWAYS_VISIBLE, mergeVisibility, type SlotVisibility, type VisibilityPatch } from './shared/visibility.ts'
import { checkSlotData, isPlainObject } from './slot-data.ts'

export interface NewSlot {
  type: string
  data?: unknown
  /** Optional; a new slot is visible. */
  visibility?: VisibilityPatch
}

export interface SlotPatch {
  id: number
  /** At least one of data and visibility. */
  data?: unknown
  visibility?: VisibilityPatch
}

const clamp = (n: number, max: number) => Math.max(0, Math.min(n, max))

function readOnly(slot: { id?: number; type: string }, def: AnySlotTypeDef | undefined): AppError {
  if (!def) return new AppError('read_only', { message: unsupportedMessage(slot.type) })
  // Said the same to every face: where such a slot is made is no concern of the caller refused here.
  const message =
    slot.id === undefined
      ? `${slot.type} slots can be read, deleted and reordered, but not created or changed here.`
      : `Slot ${slot.id} is ${/^[aeiou]/.test(slot.type) ? 'an' : 'a'} ${slot.type} slot: it can be read, deleted and reordered, but not changed here.`
  return new AppError('read_only', { message })
}

async function lockAndCount(db: Db, profile: StoredProfile, adding: number): Promise<number> {
  await profilesRepository.lockForWrite(db, profile.id)
  const count = await slotsRepository.countByProfile(db, profile.id)
  if (count + adding > limits.slotsPerProfile) {
    throw new AppError('limit_reached', {
      message: `A page holds at most ${limits.slotsPerProfile} slots; it has ${count}, so ${adding} more do not fit. Delete some first.`,
    })
  }
  return count
}

/**
 * Every slot's data checked (all problems at once, keyed under each prefix), then every upload
 * path checked against the owner's files in one query. Throws one 422 naming every key.
 */
async function prepare(
  db: Db,
  userId: number,
  /** No `def`: the data stays as stored (a patch of visibility alone). */
  items: Array<{ def?: AnySlotTypeDef; data: unknown; prefix: string; visibility?: VisibilityPatch; current?: SlotVisibility }>,
) {
  const errors: FieldErrors = Object.create(null)
  const visibility = await prepareVisibility(db, userId, items, errors)
  const files: Array<FileRef & { prefix: string }> = []
  const out: Array<Record<string, unknown> | undefined> = []
  for (const item of items) {
    if (!item.def) {
      out.push(undefined)
      continue
    }
    const check = checkSlotData(item.def, item.data, item.prefix)
    if (!check.ok) {
      mergeErrors(errors, check.errors)
      continue
    }
    out.push(check.data)
    for (const f of check.files) files.push({ ...f, prefix: item.prefix })
  }
  if (files.length) {
    const owned = await filesRepository.ownedPaths(
      db,
      userId,
      files.map((f) => f.path),
    )
    for (const f of files) {
      if (!owned.has(f.path)) {
        mergeErrors(errors, { [`${f.prefix}.${f.field}`]: ['Not one of your uploads: upload the image with {{files.upload}} and send the path it returns.'] })
      }
    }
  }
  if (Object.keys(errors).length) throw invalid(errors)
  return out.map((data, i) => ({ data, visibility: visibility[i] }))
}

/**
 * Each item's visibility merged over its current one (a new slot: visible) and
 * checked, problems keyed `<prefix>.visibility.<key>` beside the data's (prefix `data` →
 * `visibility.endsAt`; `slots.2.data` → `slots.2.visibility.endsAt`). The owner's time zone is
 * read only when some time is written without an offset.
 */
async function prepareVisibility(
  db: Db,
  userId: number,
  items: Array<{ prefix: string; visibility?: VisibilityPatch; current?: SlotVisibility }>,
  errors: FieldErrors,
): Promise<Array<SlotVisibility | undefined>> {
  if (!items.some((item) => item.visibility)) return items.map(() => undefined)
  const timeZone = (await usersRepository.findById(db, userId))?.timezone ?? 'UTC'
  return items.map((item) => {
    if (!item.visibility) return undefined
    const prefix = item.prefix.replace(/(^|\.)data$/, '$1visibility')
    const merged = mergeVisibility(item.current ?? ALWAYS_VISIBLE, item.visibility, timeZone, prefix)
    if (merged.ok) return merged.value
    mergeErrors(errors, merged.errors)
    return undefined
  })
}

/** The owner's page's time zone (times of a schedule without an offset are read in it). */
async function ownerTimeZone(db: Db, userId: number): Promise<string> {
  return (await usersRepository.findById(db, userId))?.timezone ?? 'UTC'
}

async function list(db: Db, profileId: number): Promise<StoredSlot[]> {
  return slotsRepository.listByProfile(db, profileId)
}

async function get(db: Db, profileId: number, slotId: number): Promise<StoredSlot> {
  const slot = await slotsRepository.findInProfile(db, profileId, slotId)
  if (!slot) throw notFound('slot', `No slot ${slotId} on this page. {{slots.list}} lists them.`)
  return slot
}

/** spec, POST …/slots: `order` inserts there and shifts the rest down; without it the slot goes last. */
async function create(db: Db, profile: StoredProfile, input: NewSlot & { order?: number }): Promise<StoredSlot> {
  const [slot] = await insertAt(db, profile, [input], input.order, () => 'data')
  return slot
}

/** spec, POST …/slots/batch: all or nothing, array order is page order, keys `slots.<i>.data.<field>`. */
async function createMany(db: Db, profile: StoredProfile, slots: NewSlot[], at?: number | null): Promise<StoredSlot[]> {
  return insertAt(db, profile, slots, at ?? undefined, (i) => `slots.${i}.data`)
}

async function insertAt(db: Db, profile: StoredProfile, inputs: NewSlot[], at: number | undefined, prefix: (i: number) => string) {
  const defs = inputs.map((input) => slotTypeOf(input.type))
  const blocked = defs.findIndex((def) => !def?.writable)
  if (blocked !== -1) throw readOnly(inputs[blocked], defs[blocked])
  const prepared = await prepare(
    db,
    profile.userId,
    inputs.map((input, i) => ({ def: defs[i]!, data: input.data, prefix: prefix(i), visibility: input.visibility })),
  )
  const count = await lockAndCount(db, profile, inputs.length)
  const start = clamp(at ?? count, count)
  if (start < count) await slotsRepository.shiftFrom(db, profile.id, start, inputs.length)
  return slotsRepository.insertMany(
    db,
    profile.id,
    inputs.map((input, i) => ({ type: input.type, data: prepared[i].data, visibility: prepared[i].visibility, position: start + i })),
  )
}

/** Top-level merge of a patch over stored data (spec: PATCH merges at the top level). */
function merge(current: unknown, patch: unknown): unknown {
  if (Array.isArray(patch) && patch.length === 0) return current
  return isPlainObject(patch) && isPlainObject(current) ? { ...current, ...patch } : patch
}

const NOTHING_TO_CHANGE = 'Send data (merged over the current values), visibility, or both.'

/**
 * spec, PATCH …/slots/{slot}: data merged at the top level; the type cannot change. A patch of
 * visibility alone touches no data, so it is allowed on read-only and legacy slots too.
 */
async function update(
  db: Db,
  profile: StoredProfile,
  slotId: number,
  patch: { data?: unknown; type?: string; visibility?: VisibilityPatch },
): Promise<StoredSlot> {
  if (patch.data === undefined && patch.visibility === undefined) throw invalid({ data: [NOTHING_TO_CHANGE] })
  await profilesRepository.lockForWrite(db, profile.id)
  const slot = await get(db, profile.id, slotId)
  if (patch.type !== undefined && patch.type !== slot.type) {
    throw invalid({ type: [`The type of a slot cannot be changed (this one is ${slot.type}); create a new slot and delete this one.`] })
  }
  if (patch.data === undefined) return setVisibility(db, profile, slot, patch.visibility!)
  const def = slotTypeOf(slot.type)
  if (!def?.writable) throw readOnly(slot, def)
  const [next] = await prepare(db, profile.userId, [
    { def, data: merge(slot.data, patch.data), prefix: 'data', visibility: patch.visibility, current: slot.visibility },
  ])
  return slotsRepository.updateData(db, slot.id, next.data, next.visibility)
}

/** A slot's visibility alone, for any slot of the page (read-only and legacy ones too). */
async function setVisibility(db: Db, profile: StoredProfile, slotOrId: StoredSlot | number, patch: VisibilityPatch): Promise<StoredSlot> {
  await profilesRepository.lockForWrite(db, profile.id)
  const slot = typeof slotOrId === 'number' ? await get(db, profile.id, slotOrId) : slotOrId
  const merged = mergeVisibility(slot.visibility, patch, await ownerTimeZone(db, profile.userId), 'visibility')
  if (!merged.ok) throw invalid(merged.errors)
  return slotsRepository.updateData(db, slot.id, undefined, merged.value)
}

/** spec, PATCH …/slots: many top-level merges, all or nothing; positions untouched. */
async function updateMany(db: Db, profile: StoredProfile, patches: SlotPatch[]): Promise<StoredSlot[]> {
  await profilesRepository.lockForWrite(db, profile.id)
  const byId = new Map((await slotsRepository.listByProfile(db, profile.id)).map((s) => [s.id, s]))
  const errors: FieldErrors = Object.create(null)
  const firstIndex = new Map<number, number>()
  patches.forEach((p, i) => {
    if (p.data === undefined && p.visibility === undefined) errors[`slots.${i}.data`] = [NOTHING_TO_CHANGE]
    const seen = firstIndex.get(p.id)
    if (seen !== undefined) errors[`slots.${i}.id`] = [`Slot ${p.id} is already patched by slots.${seen}; send each slot once.`]
    else firstIndex.set(p.id, i)
    if (!byId.has(p.id)) errors[`slots.${i}.id`] = [`No slot ${p.id} on this page; nothing was changed. GET …/slots lists them.`]
  })
  if (Object.keys(errors).length) throw invalid(errors)
  for (const p of patches) {
    const slot = byId.get(p.id)!
    const def = slotTypeOf(slot.type)
    // A visibility-only patch touches no data: read-only and legacy slots may take it.
    if (p.data !== undefined && !def?.writable) throw readOnly(slot, def)
  }
  const next = await prepare(
    db,
    profile.userId,
    patches.map((p, i) => {
      const slot = byId.get(p.id)!
      const prefix = `slots.${i}.data`
      if (p.data === undefined) return { data: undefined, prefix, visibility: p.visibility, current: slot.visibility }
      return { def: slotTypeOf(slot.type)!, data: merge(slot.data, p.data), prefix, visibility: p.visibility, current: slot.visibility }
    }),
  )
  const out: StoredSlot[] = []
  for (let i = 0; i < patches.length; i++) {
    out.push(await slotsRepository.updateData(db, patches[i].id, next[i].data, next[i].visibility))
  }
  return out
}

/** Closes the gaps deletions leave, so positions stay 0..n-1. */
async function compact(db: Db, profileId: number): Promise<number> {
  const rest = await slotsRepository.listByProfile(db, profileId)
  const moves = rest.flatMap((s, i) => (s.position === i ? [] : [{ id: s.id, position: i }]))
  if (moves.length) await slotsRepository.setPositions(db, profileId, moves)
  return rest.length
}

/** spec, DELETE …/slots/{slot}: permanent; read-only and legacy slots may be deleted too. */
async function remove(db: Db, profile: StoredProfile, slotId: number): Promise<void> {
  await profilesRepository.lockForWrite(db, profile.id)
  await get(db, profile.id, slotId)
  await slotsRepository.deleteMany(db, profile.id, [slotId])
  await compact(db, profile.id)
}

/** spec, DELETE …/slots: one id not on this page refuses the whole request. */
async function removeMany(db: Db, profile: StoredProfile, ids: number[]): Promise<{ deleted: number; total: number }> {
  await profilesRepository.lockForWrite(db, profile.id)
  const onPage = new Set((await slotsRepository.listByProfile(db, profile.id)).map((s) => s.id))
  const unique = [...new Set(ids)]
  const foreign = unique.filter((id) => !onPage.has(id))
  if (foreign.length) {
    throw invalid({ ids: [`Not on this page: ${foreign.join(', ')}. Nothing was deleted; GET …/slots lists the page's slot ids.`] })
  }
  const deleted = await slotsRepository.deleteMany(db, profile.id, unique)
  return { deleted, total: await compact(db, profile.id) }
}

/** spec, PUT …/slots/order: every slot id of the page exactly once, in the new order. */
async function reorder(db: Db, profile: StoredProfile, order: number[]): Promise<StoredSlot[]> {
  await profilesRepository.lockForWrite(db, profile.id)
  const slots = await slotsRepository.listByProfile(db, profile.id)
  const onPage = new Set(slots.map((s) => s.id))
  const problems: string[] = []
  const seen = new Set<number>()
  const repeated: number[] = []
  for (const id of order) {
    if (seen.has(id)) repeated.push(id)
    seen.add(id)
  }
  const foreign = [...seen].filter((id) => !onPage.has(id))
  const missing = slots.filter((s) => !seen.has(s.id)).map((s) => s.id)
  if (repeated.length) problems.push(`Listed more than once: ${[...new Set(repeated)].join(', ')}.`)
  if (foreign.length) problems.push(`Not on this page: ${foreign.join(', ')}.`)
  if (missing.length) problems.push(`Missing: ${missing.join(', ')}.`)
  if (problems.length) {
    throw invalid({ order: [`Pass every slot id of the page exactly once (${slots.length} ids). ${problems.join(' ')}`] })
  }
  const position = new Map(order.map((id, i) => [id, i]))
  const moves = slots.flatMap((s) => (s.position === position.get(s.id) ? [] : [{ id: s.id, position: position.get(s.id)! }]))
  if (moves.length) await slotsRepository.setPositions(db, profile.id, moves)
  return slots.map((s) => ({ ...s, position: position.get(s.id)! })).sort((a, b) => a.position - b.position)
}

/** Where each kind of record a slot type may render from is kept (slots/types.ts RecordRef). */
const recordLoaders: Record<RecordRef['kind'], (db: Db, userId: number, ids: number[]) => Promise<Array<{ id: number }>>> = {
  events: eventsRepository.findManyOfUser,
  forms: formsRepository.findManyOfUser,
}

/** The records behind a page's read-only slots (events, forms), by slot id (the owner's only). */
async function records(db: Db, userId: number, slots: StoredSlot[]): Promise<Map<number, unknown>> {
  const refs = slots.flatMap((s) => {
    const ref = slotTypeOf(s.type)?.record?.(s.data as never)
    return ref ? [{ slotId: s.id, ...ref }] : []
  })
  const kinds = Object.keys(recordLoaders) as Array<RecordRef['kind']>
  const loaded = await Promise.all(
    kinds.map(async (kind) => {
      const ids = refs.filter((r) => r.kind === kind).map((r) => r.id)
      const found = ids.length ? await recordLoaders[kind](db, userId, ids) : []
      return [kind, new Map(found.map((record) => [record.id, record]))] as const
    }),
  )
  const byKind = new Map(loaded)
  const out = new Map<number, unknown>()
  for (const r of refs) {
    const record = byKind.get(r.kind)?.get(r.id)
    if (record) out.set(r.slotId, record)
  }
  return out
}

/**
 * Slots the dashboard manages (event, form) and the demo page: checked by their type's schema and
 * rules like any slot, appended, but allowed for read-only types. Not reachable from the API.
 */
async function appendManaged(db: Db, profile: StoredProfile, inputs: NewSlot[]): Promise<StoredSlot[]> {
  const prepared = await prepare(
    db,
    profile.userId,
    inputs.map((input, i) => {
      const def = slotTypeOf(input.type)
      if (!def) throw invalid({ [`slots.${i}.type`]: [`Unknown slot type "${input.type}".`] })
      return { def, data: input.data, prefix: `slots.${i}.data`, visibility: input.visibility }
    }),
  )
  const count = await lockAndCount(db, profile, inputs.length)
  return slotsRepository.insertMany(
    db,
    profile.id,
    inputs.map((input, i) => ({ type: input.type, data: prepared[i].data, visibility: prepared[i].visibility, position: count + i })),
  )
}

/** Slots as the API answers them (computed fields derived with this service's public URL). */
function present(config: Config, slots: StoredSlot[]): SlotResource[] {
  const c = { fileUrl: (path: string) => publicFileUrl(config.publicUrl, path) }
  return slots.map((s) => toSlotResource(s, c))
}

export const slotService = Object.freeze({
  present,
  list,
  get,
  create,
  createMany,
  update,
  updateMany,
  remove,
  removeMany,
  reorder,
  records,
  appendManaged,
  setVisibility,
})
