import { Type } from '@sinclair/typebox'
import { renderNextStepsIn } from '../../kernel/next-step.ts'
import { slotTypes as slotTypeUseCases } from '../../core/use-cases.ts'
import { toolNextSteps } from '../tool-next-steps.ts'
import { defineTool } from '../define-tool.ts'
import { slotTypeUri } from '../resources.ts'
import { inToolWords, schemaInToolWords } from '../tool-words.ts'

const SlotTypeInfo = Type.Object(
  {
    type: Type.String({ description: "The value for a slot's type." }),
    title: Type.String(),
    description: Type.String({ description: 'What the block is and how to write its data.' }),
    writable: Type.Boolean({ description: 'false: such slots can be read, deleted and reordered, not created or changed.' }),
    schema: Type.Object({}, { additionalProperties: true, description: 'JSON Schema of data, exactly as writes are checked.' }),
    example: Type.Unknown({ description: 'Valid data for this type.' }),
    resource: Type.String({ description: 'The MCP resource with the same description, computed fields and labels.' }),
  },
  { additionalProperties: false },
)

export default defineTool({
  name: 'list_slot_types',
  title: 'List the kinds of blocks a page can hold',
  description: "Each slot type's data fields with an example. Call it before create_slots or update_slots for the shape of data.",
  scope: 'profile:read',
  inputSchema: Type.Object({}, { additionalProperties: false }),
  outputSchema: Type.Object({ types: Type.Array(SlotTypeInfo) }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async () => {
    const described = renderNextStepsIn(await slotTypeUseCases.list(), toolNextSteps)
    const types = described.map((d) => ({
      type: d.type,
      title: d.title,
      description: inToolWords(d.description),
      writable: d.writable,
      schema: schemaInToolWords(d.schema),
      example: d.example,
      resource: slotTypeUri(d.type),
    }))
    return { structured: { types }, text: `${types.length} slot types: ${types.map((t) => t.type + (t.writable ? '' : ' (read-only)')).join(', ')}.` }
  },
})
