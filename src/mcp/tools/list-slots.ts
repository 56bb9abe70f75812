import { Type } from '@sinclair/typebox'
import { slots } from '../../core/use-cases.ts'
import { Slot } from '../../slots/slot-resource.ts'
import { defineTool } from '../define-tool.ts'
import { ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'list_slots',
  title: 'List the blocks of a page',
  description: "Lists a page's slots in page order with id, type and data. Call it before update_slots, move_slot or delete_slots for the ids.",
  scope: 'profile:read',
  inputSchema: Type.Object({ profileKey: ProfileKey }, { additionalProperties: false }),
  outputSchema: Type.Object({ slots: Type.Array(Slot) }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey }, { ctx, principal }) => {
    const list = await slots.list(ctx, principal, profileKey)
    return { structured: { slots: list }, text: `${list.length} slot(s): ${list.map((s) => `${s.id} ${s.type}`).join(', ') || 'none'}.` }
  },
})
