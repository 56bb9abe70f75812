import { Type } from '@sinclair/typebox'
import { slotVisibility } from '../../core/use-cases.ts'
import { Slot } from '../../slots/slot-resource.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { ProfileKey, writeInput } from '../tool-schemas.ts'
import { shownText } from './schedule-slot.ts'

export default defineTool({
  name: 'show_slot',
  title: 'Show a hidden block again',
  description: 'Puts a hidden slot back on the public page (within its schedule, if any). Call list_slots first for the id.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, slot: Type.Integer({ minimum: 1, description: 'The slot id (list_slots).' }) }),
  outputSchema: Type.Object({ slot: Slot }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, slot, dryRun }, { ctx, principal }) => {
    const shown = await slotVisibility.show(ctx, principal, profileKey, { slot }, { dryRun })
    return { structured: { slot: shown }, text: doneText(dryRun, shownText(shown)) }
  },
})
