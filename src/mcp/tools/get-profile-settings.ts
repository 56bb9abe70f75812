import { Type } from '@sinclair/typebox'
import { ProfileSettings } from '../../profiles/profile-schemas.ts'
import { profiles } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'get_profile_settings',
  title: 'Read a page\'s login and language',
  description:
    'Reads a page\'s login (its address) and page language, with the languages it may use and the login rules (length, ' +
    'characters, reserved words). Call it before update_profile_settings. Example: get_profile_settings {"profileKey": "jane.doe"} ' +
    '→ {"settings": {"login": "jane.doe", "languageCode": null, "options": {"languages": […]}, …}}.',
  scope: 'profile:read',
  inputSchema: Type.Object({ profileKey: ProfileKey }, { additionalProperties: false }),
  outputSchema: Type.Object({ settings: ProfileSettings }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey }, { ctx, principal }) => {
    const settings = await profiles.getSettings(ctx, principal, profileKey)
    return { structured: { settings }, text: `Page ${settings.login}: language ${settings.languageCode ?? 'follows the owner'}.` }
  },
})
