import { Type } from '@sinclair/typebox'
import { Profile, UpdateProfileRequest } from '../../profiles/profile-schemas.ts'
import { profiles } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'update_profile',
  title: 'Change a page\'s title, description, images or socials',
  description:
    'Changes the page header: title, description, avatar and bgImage (paths from upload_image_from_url), and socials. Warning: ' +
    'socials replaces the whole row of social links ({link, order} each; icons are derived), and links left out are gone with ' +
    'their click counts; to change one use upsert_social_link or delete_social_link instead. Omitted fields stay; null clears ' +
    'one. Call get_profile first to see the current values. Example: update_profile {"profileKey": "jane.doe", "title": "Jane Doe", "socials": ' +
    '[{"link": "instagram.com/jane.doe"}]}.',
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
