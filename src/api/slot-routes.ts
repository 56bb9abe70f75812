import { Type } from '@sinclair/typebox'
import { metaOnly, route, routes } from '../http/routes.ts'
import { DataOf, ProfileKeyParam } from '../http/envelope-schemas.ts'
import { limits } from '../kernel/limits.ts'
import { Slot } from '../slots/slot-resource.ts'
import { DeleteBody, NewSlotBody, NewSlotsBody, OrderBody, PatchSlotBody, PatchSlotsBody, SlotIds, slots as slotUseCases } from '../core/use-cases.ts'

const KeyParams = Type.Object({ profileKey: ProfileKeyParam })
const SlotParams = Type.Object({ profileKey: ProfileKeyParam, slot: Type.Integer({ minimum: 1, description: 'The slot id.' }) })

// Ids as a query string is HTTP's way of sending them (DELETE bodies are unusual); the use case takes a list.
const DeleteQuery = Type.Object({
  'ids[]': Type.Optional({ ...SlotIds, description: 'The slot ids to delete: ids[]=1&ids[]=2.' }),
})
const SlotList = DataOf(Type.Array(Slot))
const OneSlot = DataOf(Slot)

export default routes(
  'Slots',
  'The ordered blocks of a page. Writes are strict and all-or-nothing; legacy and event slots can be deleted and reordered only.',
  '/v1/profiles/:profileKey/slots',
  [
    route({
      method: 'GET',
      url: '',
      operationId: 'listSlots',
      summary: 'List the slots of a page, in page order',
      scope: 'profile:read',
      params: KeyParams,
      reply: { 200: SlotList },
      handler: ({ ctx, principal, params }) => slotUseCases.list(ctx, principal, params.profileKey),
    }),
    route({
      method: 'POST',
      url: '',
      operationId: 'createSlot',
      summary: 'Create a slot',
      description:
        'Adds one slot; data is validated against the type’s schema (GET /slot-types/{type}). `order` inserts and shifts the rest ' +
        `down; without it the slot goes last. At most ${limits.slotsPerProfile} slots per page (409 limit_reached).`,
      scope: 'profile:write',
      params: KeyParams,
      body: NewSlotBody,
      reply: { 201: OneSlot },
      errors: [409],
      handler: ({ ctx, principal, params, body, dryRun }) => slotUseCases.create(ctx, principal, params.profileKey, body, { dryRun }),
    }),
    route({
      method: 'PATCH',
      url: '',
      operationId: 'updateSlots',
      summary: 'Update many slots at once',
      description:
        'Merges each data over the slot’s current values at the top level; positions are untouched. All or nothing: one bad slot ' +
        'refuses the batch (keys slots.<index>.data.<field>); an event or legacy slot is 409 read_only.',
      scope: 'profile:write',
      params: KeyParams,
      body: PatchSlotsBody,
      reply: { 200: SlotList },
      errors: [409],
      handler: ({ ctx, principal, params, body, dryRun }) => slotUseCases.updateMany(ctx, principal, params.profileKey, body, { dryRun }),
    }),
    route({
      method: 'DELETE',
      url: '',
      operationId: 'deleteSlots',
      summary: 'Delete many slots at once',
      description:
        'Ids as query ids[]=1&ids[]=2 or as JSON body {"ids": [1, 2]}. One id not on this page refuses the whole request. ' +
        'Permanent: click statistics go with the slots. Answers how many were deleted and how many remain.',
      scope: 'profile:write',
      params: KeyParams,
      query: DeleteQuery,
      body: DeleteBody,
      reply: { 200: Type.Object({ meta: Type.Object({ deleted: Type.Integer(), total: Type.Integer({ description: 'Slots left on the page.' }) }) }) },
      errors: [409],
      handler: async ({ ctx, principal, params, query, body, dryRun }) =>
        metaOnly(await slotUseCases.removeMany(ctx, principal, params.profileKey, { ids: query['ids[]'] ?? body.ids }, { dryRun })),
    }),
    route({
      method: 'POST',
      url: '/batch',
      operationId: 'createSlots',
      summary: 'Create many slots at once',
      description:
        `1 to ${limits.slotsPerBatch} slots; array order is page order; insertAt places the whole batch (default: appended). ` +
        'All or nothing; error keys look like slots.<index>.data.<field>. Event and form slots are 409 read_only.',
      scope: 'profile:write',
      params: KeyParams,
      body: NewSlotsBody,
      reply: { 201: SlotList },
      errors: [409],
      handler: ({ ctx, principal, params, body, dryRun }) => slotUseCases.createMany(ctx, principal, params.profileKey, body, { dryRun }),
    }),
    route({
      method: 'PUT',
      url: '/order',
      operationId: 'reorderSlots',
      summary: 'Set the order of every slot',
      description: 'Pass every slot id of the page exactly once, in the new order (GET …/slots lists them). Legacy and event slots included.',
      scope: 'profile:write',
      params: KeyParams,
      body: OrderBody,
      reply: { 200: SlotList },
      errors: [409],
      handler: ({ ctx, principal, params, body, dryRun }) => slotUseCases.reorder(ctx, principal, params.profileKey, body, { dryRun }),
    }),
    route({
      method: 'GET',
      url: '/:slot',
      operationId: 'getSlot',
      summary: 'Read a slot',
      scope: 'profile:read',
      params: SlotParams,
      reply: { 200: OneSlot },
      handler: ({ ctx, principal, params }) => slotUseCases.get(ctx, principal, params.profileKey, params.slot),
    }),
    route({
      method: 'PATCH',
      url: '/:slot',
      operationId: 'updateSlot',
      summary: 'Update a slot',
      description:
        'Merges data over the current values at the top level (send only what changes). The type cannot be changed; event and ' +
        'legacy slots are 409 read_only for data. The id, and so the click statistics, stay. `visibility` hides the block or ' +
        'schedules it (startsAt/endsAt, ISO 8601; a time without offset is in the owner’s time zone); a patch of visibility ' +
        'alone is allowed on every slot. A hidden or out-of-window block is absent from the public page and its click address is 404.',
      scope: 'profile:write',
      params: SlotParams,
      body: PatchSlotBody,
      reply: { 200: OneSlot },
      errors: [409],
      handler: ({ ctx, principal, params, body, dryRun }) => slotUseCases.update(ctx, principal, params.profileKey, { slot: params.slot, ...body }, { dryRun }),
    }),
    route({
      method: 'DELETE',
      url: '/:slot',
      operationId: 'deleteSlot',
      summary: 'Delete a slot',
      description: 'Permanent, no restore; its click statistics go with it. Read-only and legacy slots can be deleted.',
      scope: 'profile:write',
      params: SlotParams,
      reply: { 204: null },
      errors: [409],
      handler: ({ ctx, principal, params, dryRun }) => slotUseCases.remove(ctx, principal, params.profileKey, { slot: params.slot }, { dryRun }),
    }),
  ],
)
