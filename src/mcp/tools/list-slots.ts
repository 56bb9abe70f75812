import { Type } from '@sinclair/typebox'
import { slots } from '../../core/use-cases.ts'
import { Slot } from '../../slots/slot-resource.ts'
import { defineTool } from '../define-tool.ts'
import { ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'list_slots',
  title: 'List the blocks of a page',
  description:
    'Lists every slot (block) of a page in page order with id, type, order, data and computed fields. Call it before ' +
    'update_slots, reorder_slots or delete_slots to get the slot ids. Example: list_slots {"profileKey": "jane.doe"} → ' +
    '{"slots": [{"id": 118, "type": "button", "order": 0, "data": {"title": "My shop", …}, …}]}.',
  scope: 'profile:read',
  inputSchema: Type.Object({ profileKey: ProfileKey }, { additionalProperties: false }),
  outputSchema: Type.Object({ slots: Type.Array(Slot) }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey }, { ctx, principal }) => {
    const list = await slots.list(ctx, principal, profileKey)
    return { structured: { slots: list }, text: `${list.length} slot(s): ${list.map((s) => `${s.id} ${s.type}`).join(', ') || 'none'}.` }
  },
})
