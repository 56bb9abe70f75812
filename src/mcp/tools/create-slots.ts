import { Type } from '@sinclair/typebox'
import { NewSlotsBody } from '../../core/use-cases.ts'
import { limits } from '../../kernel/limits.ts'
import { slots } from '../../core/use-cases.ts'
import { Slot } from '../../slots/slot-resource.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { compactNewSlot, DryRun, fieldsOf, IdempotencyKey, ProfileKey, writeInput } from '../tool-schemas.ts'

const { slots: slotList, insertAt } = fieldsOf(NewSlotsBody)

export default defineTool({
  name: 'create_slots',
  title: 'Add blocks to a page',
  description: "Adds slots to a page in one write; array order is page order. Call list_slot_types first for each type's data.",
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, slots: slotList, insertAt }),
  advertisedInput: Type.Object(
    {
      profileKey: ProfileKey,
      slots: Type.Array(compactNewSlot(), { minItems: 1, maxItems: limits.slotsPerBatch, description: 'Array order is page order.' }),
      insertAt,
      dryRun: DryRun,
      idempotencyKey: IdempotencyKey,
    },
    { additionalProperties: false },
  ),
  outputSchema: Type.Object({ slots: Type.Array(Slot) }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async ({ profileKey, slots: input, insertAt: at, dryRun }, { ctx, principal }) => {
    const created = await slots.createMany(ctx, principal, profileKey, { slots: input, insertAt: at }, { dryRun })
    return {
      structured: { slots: created },
      text: doneText(dryRun, `Created ${created.length} slot(s): ${created.map((s) => `${s.id} ${s.type}`).join(', ')}.`),
    }
  },
})
