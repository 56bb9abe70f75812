import { Type } from '@sinclair/typebox'
import { slotVisibility } from '../../core/use-cases.ts'
import { Slot } from '../../slots/slot-resource.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'hide_slot',
  title: 'Hide a block from the public page',
  description: 'Takes a slot off the public page without deleting it; show_slot puts it back. Call list_slots first for the id.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, slot: Type.Integer({ minimum: 1, description: 'The slot id (list_slots).' }) }),
  outputSchema: Type.Object({ slot: Slot }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, slot, dryRun }, { ctx, principal }) => {
    const hidden = await slotVisibility.hide(ctx, principal, profileKey, { slot }, { dryRun })
    return { structured: { slot: hidden }, text: doneText(dryRun, `Slot ${hidden.id} is hidden from the public page.`) }
  },
})
