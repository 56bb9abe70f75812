import { Type } from '@sinclair/typebox'
import { PatchSlotsBody } from '../../core/slot-use-cases.ts'
import { slots } from '../../core/use-cases.ts'
import { Slot } from '../../slots/resource.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, ProfileKey, writeInput } from '../schemas.ts'

export default defineTool({
  name: 'update_slots',
  title: 'Change the data of blocks',
  description:
    'Changes one or many slots at once, all or nothing: each data is merged over the slot\'s current values at the top level ' +
    '(send only what changes; the type cannot change). Call list_slots first for ids and current data, and list_slot_types for ' +
    'the fields of each type. Event and legacy slots are read-only. Example: update_slots {"profileKey": "jane.doe", "slots": ' +
    '[{"id": 118, "data": {"title": "Shop (new)"}}]}.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ...fieldsOf(PatchSlotsBody) }),
  outputSchema: Type.Object({ slots: Type.Array(Slot) }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, slots: patches, dryRun }, { ctx, principal }) => {
    const updated = await slots.updateMany(ctx, principal, profileKey, { slots: patches }, { dryRun })
    return { structured: { slots: updated }, text: doneText(dryRun, `Updated ${updated.length} slot(s): ${updated.map((s) => s.id).join(', ')}.`) }
  },
})
