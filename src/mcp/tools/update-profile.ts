import { Type } from '@sinclair/typebox'
import { Profile, UpdateProfileRequest } from '../../profiles/profile-schemas.ts'
import { profiles } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'update_profile',
  title: "Change a page's title, description, images or socials",
  description:
    'Changes the page header: title, description, avatar, bgImage and socials. socials replaces the whole row; to change one link use upsert_social_link instead.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ...fieldsOf(UpdateProfileRequest) }),
  outputSchema: Type.Object({ profile: Profile }, { additionalProperties: false }),
  // socials replaces the row: links left out are lost.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, dryRun, idempotencyKey: _key, ...changes }, { ctx, principal }) => {
    const profile = await profiles.update(ctx, principal, profileKey, changes, { dryRun })
    return { structured: { profile }, text: doneText(dryRun, `Updated the page ${profile.login}: ${Object.keys(changes).join(', ') || 'nothing changed'}.`) }
  },
})
