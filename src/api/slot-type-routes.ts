import { Type } from '@sinclair/typebox'
import { renderNextStepsIn } from '../kernel/next-step.ts'
import { slotTypes as slotTypeUseCases } from '../core/use-cases.ts'
import { restNextSteps } from '../http/route-next-steps.ts'
import { route, routes } from '../http/routes.ts'
import { DataOf } from '../http/envelope-schemas.ts'

const SlotTypeDescription = Type.Object(
  {
    type: Type.String({ description: 'The type name used in slot.type.' }),
    title: Type.String({ description: 'Human name.' }),
    description: Type.String({ description: 'What the block is and how to write it.' }),
    writable: Type.Boolean({ description: 'False: slots of this type can be read, deleted and reordered, not created or changed.' }),
    schema: Type.Object({}, { additionalProperties: true, description: 'JSON Schema of data, exactly as writes are validated.' }),
    computed: Type.Object({}, { additionalProperties: true, description: 'JSON Schema of computed (server-derived, read-only).' }),
    enumLabels: Type.Record(Type.String(), Type.Record(Type.String(), Type.String()), {
      description: 'Field → enum value → label for people.',
    }),
    example: Type.Object({}, { additionalProperties: true, description: 'Valid data for this type.' }),
    visibility: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'JSON Schema of `visibility`, the same for every type: optional on every write (hidden, startsAt, endsAt; ISO 8601, a time without offset in the owner’s time zone; endsAt after startsAt). Every slot answers it.',
      },
    ),
  },
  { additionalProperties: false },
)

export default routes('Slot types', 'What each slot type holds: its data schema, computed fields, labels and an example.', '/v1', [
  route({
    method: 'GET',
    url: '/slot-types',
    operationId: 'listSlotTypes',
    summary: 'Describe every slot type',
    scope: 'profile:read',
    reply: { 200: DataOf(Type.Array(SlotTypeDescription)) },
    handler: async () => renderNextStepsIn(await slotTypeUseCases.list(), restNextSteps),
  }),
  route({
    method: 'GET',
    url: '/slot-types/:type',
    operationId: 'getSlotType',
    summary: 'Describe one slot type',
    scope: 'profile:read',
    params: Type.Object({ type: Type.String({ description: 'A slot type name.', examples: ['button'] }) }),
    reply: { 200: DataOf(SlotTypeDescription) },
    handler: async ({ ctx, params }) => renderNextStepsIn(await slotTypeUseCases.get(ctx, { type: params.type }), restNextSteps),
  }),
])
