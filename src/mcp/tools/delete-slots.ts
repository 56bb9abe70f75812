import { Type } from '@sinclair/typebox'
import { SlotIds } from '../../core/use-cases.ts'
import { slots } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'delete_slots',
  title: 'Delete blocks from a page',
  description:
    'Deletes one or many slots for good (no restore; their click statistics go with them). One id not on this page refuses ' +
    'the whole call. Call list_slots first for the ids, confirm with the user, and consider dryRun. Example: delete_slots ' +
    '{"profileKey": "jane.doe", "ids": [118, 119]} → {"deleted": 2, "total": 5}.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ids: SlotIds }),
  outputSchema: Type.Object(
    { deleted: Type.Integer(), total: Type.Integer({ description: 'Slots left on the page.' }) },
    { additionalProperties: false },
  ),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  handler: async ({ profileKey, ids, dryRun }, { ctx, principal }) => {
    const result = await slots.removeMany(ctx, principal, profileKey, { ids }, { dryRun })
    return { structured: result, text: doneText(dryRun, `Deleted ${result.deleted} slot(s); ${result.total} left.`) }
  },
})
