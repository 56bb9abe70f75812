import { Type } from '@sinclair/typebox'
import { ProfileSettings } from '../../profiles/profile-schemas.ts'
import { profiles } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'get_profile_settings',
  title: "Read a page's login and language",
  description: "Reads a page's login and language, with the languages and login rules allowed. Call it before update_profile_settings.",
  scope: 'profile:read',
  inputSchema: Type.Object({ profileKey: ProfileKey }, { additionalProperties: false }),
  outputSchema: Type.Object({ settings: ProfileSettings }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey }, { ctx, principal }) => {
    const settings = await profiles.getSettings(ctx, principal, profileKey)
    return { structured: { settings }, text: `Page ${settings.login}: language ${settings.languageCode ?? 'follows the owner'}.` }
  },
})
