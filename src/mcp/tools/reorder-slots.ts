import { Type } from '@sinclair/typebox'
import { OrderBody } from '../../core/use-cases.ts'
import { slots } from '../../core/use-cases.ts'
import { Slot } from '../../slots/slot-resource.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'reorder_slots',
  title: 'Reorder the blocks of a page',
  description: 'Sets the order of every slot on a page. Call list_slots first and pass every id once, top first.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ...fieldsOf(OrderBody) }),
  outputSchema: Type.Object({ slots: Type.Array(Slot) }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, order, dryRun }, { ctx, principal }) => {
    const list = await slots.reorder(ctx, principal, profileKey, { order }, { dryRun })
    return { structured: { slots: list }, text: doneText(dryRun, `New order: ${list.map((s) => s.id).join(', ')}.`) }
  },
})
