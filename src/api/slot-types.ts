import { Type } from '@sinclair/typebox'
import { notFound } from '../core/errors.ts'
import { route, routes } from '../http/routes.ts'
import { DataOf } from '../http/schemas.ts'
import { slotTypeOf, slotTypes } from '../slots/registry.ts'
import { wireSchema } from '../slots/shared/schema.ts'
import type { AnySlotTypeDef } from '../slots/types.ts'

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
  },
  { additionalProperties: false },
)

const describe = (def: AnySlotTypeDef) => ({
  type: def.type,
  title: def.title,
  description: def.description,
  writable: def.writable,
  schema: wireSchema(def.schema),
  computed: wireSchema(def.computed),
  enumLabels: def.enumLabels,
  example: def.example as Record<string, unknown>,
})

export default routes('Slot types', 'What each slot type holds: its data schema, computed fields, labels and an example.', '/v1', [
  route({
    method: 'GET',
    url: '/slot-types',
    operationId: 'listSlotTypes',
    summary: 'Describe every slot type',
    scope: 'profile:read',
    reply: { 200: DataOf(Type.Array(SlotTypeDescription)) },
    handler: async () => Object.values(slotTypes).map(describe),
  }),
  route({
    method: 'GET',
    url: '/slot-types/:type',
    operationId: 'getSlotType',
    summary: 'Describe one slot type',
    scope: 'profile:read',
    params: Type.Object({ type: Type.String({ description: 'A slot type name.', examples: ['button'] }) }),
    reply: { 200: DataOf(SlotTypeDescription) },
    handler: async ({ params }) => {
      const def = slotTypeOf(params.type)
      if (!def) throw notFound('slot type', `No slot type "${params.type}". GET /slot-types lists the ${Object.keys(slotTypes).length} types.`)
      return describe(def)
    },
  }),
])
