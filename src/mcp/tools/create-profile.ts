import { Type } from '@sinclair/typebox'
import { Profile, StoreProfileRequest } from '../../profiles/profile-schemas.ts'
import { profiles } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'create_profile',
  title: 'Create a new page',
  description: 'Creates an empty page at /<login>. Call check_login first; then update_profile for its header and create_slots for its blocks.',
  scope: 'profile:write',
  inputSchema: writeInput(fieldsOf(StoreProfileRequest)),
  outputSchema: Type.Object({ profile: Profile }, { additionalProperties: false }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async ({ login, dryRun }, { ctx, principal }) => {
    const profile = await profiles.create(ctx, principal, { login }, { dryRun })
    return { structured: { profile }, text: doneText(dryRun, `Created the page ${profile.login} (id ${profile.id}) at ${profile.computed.url}.`) }
  },
})
