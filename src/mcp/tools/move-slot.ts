import { Type } from '@sinclair/typebox'
import { MoveSlotInput } from '../../core/use-cases.ts'
import { slotMoves } from '../../core/use-cases.ts'
import { Slot } from '../../slots/slot-resource.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'move_slot',
  title: 'Move one block to a new place',
  description: 'Moves one slot to a position (0 = top). Use it instead of reorder_slots when one slot moves; list_slots gives the id.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ...fieldsOf(MoveSlotInput) }),
  outputSchema: Type.Object({ slots: Type.Array(Slot) }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, slot, position, dryRun }, { ctx, principal }) => {
    const list = await slotMoves.move(ctx, principal, profileKey, { slot, position }, { dryRun })
    return {
      structured: { slots: list },
      text: doneText(dryRun, `Slot ${slot} is now at ${list.findIndex((s) => s.id === slot)}; order: ${list.map((s) => s.id).join(', ')}.`),
    }
  },
})
