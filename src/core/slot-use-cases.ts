import { Type } from '@sinclair/typebox'
import type { Principal } from '../auth/principal.ts'
import { limits } from '../kernel/limits.ts'
import { writableTypes } from '../slots/registry.ts'
import { stringEnum } from '../slots/shared/schema-parts.ts'
import { SLOT_TYPES } from '../slots/types.ts'
import { Nullable } from '../kernel/schema-helpers.ts'
import type { AppContext } from '../context.ts'
import { invalid } from '../kernel/errors.ts'
import type { SlotResource } from '../slots/slot-resource.ts'
import { type VisibilityPatch, VisibilityInput } from '../slots/shared/visibility.ts'
import type { Db } from '../store/db.ts'
import type { StoredProfile } from '../store/profiles.ts'
import type { StoredSlot } from '../store/slots.ts'
import { presentedSlots } from '../infra/presented-slots.ts'
import { type NewSlot, type SlotPatch, slotService } from '../slots/slot-service.ts'
import { type ProfileKey, readProfile, type WriteOptions, writeProfile } from './unit-of-work.ts'

// The inputs of the slot use cases, as the spec writes the request bodies: the API's route
// rows and the MCP tools both derive theirs from these.

/** A slot body of any type; OpenAPI documents it per type (http/openapi.ts, SlotData). */
export const SlotData = Type.Unsafe<Record<string, unknown> | unknown[]>({
  type: ['object', 'array'],
  description: 'The slot body, in the shape of its type’s schema (see the slot types). Unknown keys and computed keys are refused, each one named.',
})

const batch = { minItems: 1, maxItems: limits.slotsPerBatch }
export const SlotIds = Type.Array(Type.Integer({ minimum: 1 }), { ...batch, description: `Slot ids, 1 to ${limits.slotsPerBatch}.` })

export const NewSlotBody = Type.Object(
  {
    type: stringEnum(writableTypes, { description: 'The slot type (event and form slots cannot be created through the API).' }),
    data: Type.Optional(SlotData),
    order: Type.Optional(Type.Integer({ minimum: 0, description: 'Position to insert at (0 first); later slots move down. Without it the slot goes last.' })),
    visibility: Type.Optional(VisibilityInput),
  },
  { additionalProperties: false, examples: [{ type: 'button', data: { title: 'My shop', link: 'example.com/shop' } }] },
)

export const NewSlotsBody = Type.Object(
  {
    slots: Type.Array(
      Type.Object(
        { type: stringEnum(SLOT_TYPES, { description: 'The slot type.' }), data: Type.Optional(SlotData), visibility: Type.Optional(VisibilityInput) },
        { additionalProperties: false },
      ),
      { ...batch, description: 'Array order is page order.' },
    ),
    insertAt: Type.Optional(Nullable(Type.Integer({ minimum: 0, description: 'Position of the whole batch among existing slots; null or omitted appends.' }))),
  },
  {
    additionalProperties: false,
    examples: [
      {
        slots: [
          { type: 'text', data: { title: 'Hello' } },
          { type: 'divider', data: {} },
        ],
        insertAt: 0,
      },
    ],
  },
)

export const PatchSlotsBody = Type.Object(
  {
    slots: Type.Array(
      Type.Object(
        { id: Type.Integer({ minimum: 1, description: 'A slot of this page.' }), data: Type.Optional(SlotData), visibility: Type.Optional(VisibilityInput) },
        { additionalProperties: false },
      ),
      {
        ...batch,
        description: 'Each slot once, with data (merged over its current values at the top level), visibility, or both.',
      },
    ),
  },
  { additionalProperties: false, examples: [{ slots: [{ id: 118, data: { title: 'New title' } }] }] },
)

export const DeleteBody = Type.Object(
  { ids: Type.Optional({ ...SlotIds, description: 'The slot ids to delete, when not sent as query ids[].' }) },
  { additionalProperties: false },
)

export const OrderBody = Type.Object(
  {
    order: Type.Array(Type.Integer({ minimum: 1 }), {
      minItems: 1,
      maxItems: limits.slotsPerProfile,
      description: 'Every slot id of the page exactly once, in the new order.',
    }),
  },
  { additionalProperties: false, examples: [{ order: [120, 118, 119] }] },
)

export const PatchSlotBody = Type.Object(
  {
    data: Type.Optional(SlotData),
    type: Type.Optional(Type.String({ description: 'Optional; must be the slot’s current type: a type cannot be changed.' })),
    visibility: Type.Optional(VisibilityInput),
  },
  {
    additionalProperties: false,
    description: 'data, visibility, or both (at least one).',
    examples: [
      { data: { title: 'New title' } },
      { visibility: { hidden: true } },
      { visibility: { startsAt: '2026-12-01T09:00', endsAt: '2026-12-24T18:00' } },
    ],
  },
)

// spec, Slots: one use case per operation. Every face (REST, dashboard, MCP, CLI) calls these;
// each resolves the page for the principal, checks the ability, runs in one transaction and
// announces the change to the page cache itself.

/**
 * A write use case on the slots of one page: `write` runs on the resolved page inside the
 * transaction, and the slots it answers come back as the API presents them.
 */
const slotsWrite =
  <Input>(write: (trx: Db, profile: StoredProfile, input: Input) => Promise<StoredSlot[]>) =>
  (ctx: AppContext, principal: Principal, profileKey: ProfileKey, input: Input, options: WriteOptions = {}): Promise<SlotResource[]> =>
    writeProfile(ctx, principal, profileKey, options, async (trx, profile) => slotService.present(ctx.config, await write(trx, profile, input)))

/** slotsWrite for a write of one slot. */
const slotWrite = <Input>(write: (trx: Db, profile: StoredProfile, input: Input) => Promise<StoredSlot>) => {
  const many = slotsWrite<Input>(async (trx, profile, input) => [await write(trx, profile, input)])
  return async (...args: Parameters<typeof many>): Promise<SlotResource> => (await many(...args))[0]
}

/** spec, GET …/slots: every slot of the page, in page order. */
async function list(ctx: AppContext, principal: Principal, profileKey: ProfileKey): Promise<SlotResource[]> {
  return readProfile(ctx, principal, profileKey, async (db, profile) => (await presentedSlots(ctx, db, profile)).slots as SlotResource[])
}

/** spec, GET …/slots/{slot}. */
async function get(ctx: AppContext, principal: Principal, profileKey: ProfileKey, slotId: number): Promise<SlotResource> {
  return readProfile(ctx, principal, profileKey, async (db, profile) => slotService.present(ctx.config, [await slotService.get(db, profile.id, slotId)])[0])
}

/** spec, POST …/slots: `order` inserts there and shifts the rest down; without it the slot goes last. */
const create = slotWrite((trx, profile, input: NewSlot & { order?: number }) => slotService.create(trx, profile, input))

/** spec, POST …/slots/batch: all or nothing; `insertAt` places the whole batch (null/omitted appends). */
const createMany = slotsWrite((trx, profile, input: { slots: NewSlot[]; insertAt?: number | null }) =>
  slotService.createMany(trx, profile, input.slots, input.insertAt),
)

/** spec, PATCH …/slots/{slot}: data merged at the top level; the type cannot change; visibility too. */
const update = slotWrite((trx, profile, input: { slot: number; data?: unknown; type?: string; visibility?: VisibilityPatch }) =>
  slotService.update(trx, profile, input.slot, { data: input.data, type: input.type, visibility: input.visibility }),
)

/** spec, PATCH …/slots: many top-level merges, all or nothing; positions untouched. */
const updateMany = slotsWrite((trx, profile, input: { slots: SlotPatch[] }) => slotService.updateMany(trx, profile, input.slots))

/** spec, PUT …/slots/order: every slot id of the page exactly once, in the new order. */
const reorder = slotsWrite((trx, profile, input: { order: number[] }) => slotService.reorder(trx, profile, input.order))

/** spec, DELETE …/slots/{slot}: permanent; read-only and legacy slots may be deleted too. */
async function remove(ctx: AppContext, principal: Principal, profileKey: ProfileKey, input: { slot: number }, options: WriteOptions = {}): Promise<void> {
  return writeProfile(ctx, principal, profileKey, options, (trx, profile) => slotService.remove(trx, profile, input.slot))
}

/** spec, DELETE …/slots: one id not on this page refuses the whole request. */
async function removeMany(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { ids?: number[] },
  options: WriteOptions = {},
): Promise<{ deleted: number; total: number }> {
  return writeProfile(ctx, principal, profileKey, options, (trx, profile) => {
    if (!input.ids) throw invalid({ ids: ['Pass the slot ids as query ids[]=1&ids[]=2 or as a JSON body {"ids": [1, 2]}.'] })
    return slotService.removeMany(trx, profile, input.ids)
  })
}

export const slotUseCases = Object.freeze({ list, get, create, createMany, update, updateMany, reorder, remove, removeMany })
