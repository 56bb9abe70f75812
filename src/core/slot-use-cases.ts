import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { invalid } from './errors.ts'
import type { SlotResource } from '../slots/resource.ts'
import type { VisibilityPatch } from '../slots/shared/visibility.ts'
import type { Db } from '../store/db.ts'
import type { StoredProfile } from '../store/profiles.ts'
import type { StoredSlot } from '../store/slots.ts'
import { presentedSlots } from './presented-slots.ts'
import { type NewSlot, type SlotPatch, slotService } from './slot-service.ts'
import { type ProfileKey, readPage, type WriteOptions, writePage } from './unit-of-work.ts'

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
    writePage(ctx, principal, profileKey, options, async (trx, profile) => slotService.present(ctx.config, await write(trx, profile, input)))

/** slotsWrite for a write of one slot. */
const slotWrite = <Input>(write: (trx: Db, profile: StoredProfile, input: Input) => Promise<StoredSlot>) => {
  const many = slotsWrite<Input>(async (trx, profile, input) => [await write(trx, profile, input)])
  return async (...args: Parameters<typeof many>): Promise<SlotResource> => (await many(...args))[0]
}

/** spec, GET …/slots: every slot of the page, in page order. */
async function list(ctx: AppContext, principal: Principal, profileKey: ProfileKey): Promise<SlotResource[]> {
  return readPage(ctx, principal, profileKey, async (db, profile) => (await presentedSlots(ctx, db, profile)).slots as SlotResource[])
}

/** spec, GET …/slots/{slot}. */
async function get(ctx: AppContext, principal: Principal, profileKey: ProfileKey, slotId: number): Promise<SlotResource> {
  return readPage(ctx, principal, profileKey, async (db, profile) => slotService.present(ctx.config, [await slotService.get(db, profile.id, slotId)])[0])
}

/** spec, POST …/slots: `order` inserts there and shifts the rest down; without it the slot goes last. */
const create = slotWrite((trx, profile, input: NewSlot & { order?: number }) => slotService.create(trx, profile, input))

/** spec, POST …/slots/batch: all or nothing; `insertAt` places the whole batch (null/omitted appends). */
const createMany = slotsWrite((trx, profile, input: { slots: NewSlot[]; insertAt?: number | null }) =>
  slotService.createMany(trx, profile, input.slots, input.insertAt),
)

/** spec, PATCH …/slots/{slot}: data merged at the top level; the type cannot change; visibility (issue 31) too. */
const update = slotWrite((trx, profile, input: { slot: number; data?: unknown; type?: string; visibility?: VisibilityPatch }) =>
  slotService.update(trx, profile, input.slot, { data: input.data, type: input.type, visibility: input.visibility }),
)

/** spec, PATCH …/slots: many top-level merges, all or nothing; positions untouched. */
const updateMany = slotsWrite((trx, profile, input: { slots: SlotPatch[] }) => slotService.updateMany(trx, profile, input.slots))

/** spec, PUT …/slots/order: every slot id of the page exactly once, in the new order. */
const reorder = slotsWrite((trx, profile, input: { order: number[] }) => slotService.reorder(trx, profile, input.order))

/** spec, DELETE …/slots/{slot}: permanent; read-only and legacy slots may be deleted too. */
async function remove(ctx: AppContext, principal: Principal, profileKey: ProfileKey, input: { slot: number }, options: WriteOptions = {}): Promise<void> {
  return writePage(ctx, principal, profileKey, options, (trx, profile) => slotService.remove(trx, profile, input.slot))
}

/** spec, DELETE …/slots: one id not on this page refuses the whole request. */
async function removeMany(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { ids?: number[] },
  options: WriteOptions = {},
): Promise<{ deleted: number; total: number }> {
  return writePage(ctx, principal, profileKey, options, (trx, profile) => {
    if (!input.ids) throw invalid({ ids: ['Pass the slot ids as query ids[]=1&ids[]=2 or as a JSON body {"ids": [1, 2]}.'] })
    return slotService.removeMany(trx, profile, input.ids)
  })
}

export const slotUseCases = Object.freeze({ list, get, create, createMany, update, updateMany, reorder, remove, removeMany })
