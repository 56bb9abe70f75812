import { Type } from '@sinclair/typebox'
import { SlotIds } from '../../core/use-cases.ts'
import { slots } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'delete_slots',
  title: 'Delete blocks from a page',
  description: 'Deletes slots for good, with their click counts. Call list_slots first, confirm with the user, and try dryRun.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ids: SlotIds }),
  advertiseOutput: true,
  outputSchema: Type.Object({ deleted: Type.Integer(), total: Type.Integer({ description: 'Slots left on the page.' }) }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  handler: async ({ profileKey, ids, dryRun }, { ctx, principal }) => {
    const result = await slots.removeMany(ctx, principal, profileKey, { ids }, { dryRun })
    return { structured: result, text: doneText(dryRun, `Deleted ${result.deleted} slot(s); ${result.total} left.`) }
  },
})
