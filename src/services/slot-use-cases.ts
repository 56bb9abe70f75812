import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { invalid } from '../core/errors.ts'
import type { SlotResource } from '../slots/resource.ts'
import { presentedSlots } from './presented-slots.ts'
import { type NewSlot, type SlotPatch, slotService } from './slot-service.ts'
import { type ProfileKey, readPage, type WriteOptions, writePage } from './unit-of-work.ts'

// spec, Slots: one use case per operation. Every face (REST, dashboard, MCP, CLI) calls these;
// each resolves the page for the principal, checks the ability, runs in one transaction and
// announces the change to the page cache itself.

/** spec, GET …/slots: every slot of the page, in page order. */
async function list(ctx: AppContext, principal: Principal, profileKey: ProfileKey): Promise<SlotResource[]> {
  return readPage(ctx, principal, profileKey, async (db, profile) => (await presentedSlots(ctx, db, profile)).slots as SlotResource[])
}

/** spec, GET …/slots/{slot}. */
async function get(ctx: AppContext, principal: Principal, profileKey: ProfileKey, slotId: number): Promise<SlotResource> {
  return readPage(ctx, principal, profileKey, async (db, profile) => slotService.present(ctx.config, [await slotService.get(db, profile.id, slotId)])[0])
}

/** spec, POST …/slots: `order` inserts there and shifts the rest down; without it the slot goes last. */
async function create(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: NewSlot & { order?: number },
  options: WriteOptions = {},
): Promise<SlotResource> {
  return writePage(ctx, principal, profileKey, options, async (trx, profile) => slotService.present(ctx.config, [await slotService.create(trx, profile, input)])[0])
}

/** spec, POST …/slots/batch: all or nothing; `insertAt` places the whole batch (null/omitted appends). */
async function createMany(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { slots: NewSlot[]; insertAt?: number | null },
  options: WriteOptions = {},
): Promise<SlotResource[]> {
  return writePage(ctx, principal, profileKey, options, async (trx, profile) =>
    slotService.present(ctx.config, await slotService.createMany(trx, profile, input.slots, input.insertAt)),
  )
}

/** spec, PATCH …/slots/{slot}: data merged at the top level; the type cannot change. */
async function update(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { slot: number; data: unknown; type?: string },
  options: WriteOptions = {},
): Promise<SlotResource> {
  return writePage(ctx, principal, profileKey, options, async (trx, profile) =>
    slotService.present(ctx.config, [await slotService.update(trx, profile, input.slot, { data: input.data, type: input.type })])[0],
  )
}

/** spec, PATCH …/slots: many top-level merges, all or nothing; positions untouched. */
async function updateMany(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { slots: SlotPatch[] },
  options: WriteOptions = {},
): Promise<SlotResource[]> {
  return writePage(ctx, principal, profileKey, options, async (trx, profile) =>
    slotService.present(ctx.config, await slotService.updateMany(trx, profile, input.slots)),
  )
}

/** spec, PUT …/slots/order: every slot id of the page exactly once, in the new order. */
async function reorder(
  ctx: AppContext,
  principal: Principal,
  profileKey: ProfileKey,
  input: { order: number[] },
  options: WriteOptions = {},
): Promise<SlotResource[]> {
  return writePage(ctx, principal, profileKey, options, async (trx, profile) =>
    slotService.present(ctx.config, await slotService.reorder(trx, profile, input.order)),
  )
}

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
