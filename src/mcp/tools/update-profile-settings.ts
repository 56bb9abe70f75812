import { Type } from '@sinclair/typebox'
import { ProfileSettings, UpdateSettingsRequest } from '../../profiles/profile-schemas.ts'
import { profiles } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'update_profile_settings',
  title: "Change a page's login (address) or language",
  description: "Changes a page's login or language; the old address stops working at once. Confirm with the user and run check_login first.",
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ...fieldsOf(UpdateSettingsRequest) }),
  outputSchema: Type.Object({ settings: ProfileSettings }, { additionalProperties: false }),
  // A new login cannot be undone for the visitors: the old address is free for anyone to take.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, dryRun, idempotencyKey: _key, ...changes }, { ctx, principal }) => {
    const settings = await profiles.changeSettings(ctx, principal, profileKey, changes, { dryRun })
    return {
      structured: { settings },
      text: doneText(dryRun, `Page settings saved: login ${settings.login}, language ${settings.languageCode ?? 'follows the owner'}.`),
    }
  },
})
