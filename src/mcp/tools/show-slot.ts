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
  description:
    'Undoes hide_slot: the block is on the public page again, at once or, when it has a schedule, while its window is open ' +
    '(schedule_slot changes the window). Call list_slots first for the id and its visibility. Example: show_slot {"profileKey": "jane.doe", "slot": 118}.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, slot: Type.Integer({ minimum: 1, description: 'The slot id (list_slots).' }) }),
  outputSchema: Type.Object({ slot: Slot }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, slot, dryRun }, { ctx, principal }) => {
    const shown = await slotVisibility.show(ctx, principal, profileKey, { slot }, { dryRun })
    return { structured: { slot: shown }, text: doneText(dryRun, shownText(shown)) }
  },
})
