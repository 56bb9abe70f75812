import { Type } from '@sinclair/typebox'
import { ProfileSettings, UpdateSettingsRequest } from '../../profiles/profile-schemas.ts'
import { profiles } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'update_profile_settings',
  title: 'Change a page\'s login (address) or language',
  description:
    'Changes the page\'s login or page language. Warning: a new login moves the page at once and the old address stops working ' +
    'with no redirect, so every link, QR code and NFC tag pointing to it breaks; confirm with the user, run check_login (with ' +
    'profileKey) first, and consider dryRun. Example: update_profile_settings {"profileKey": "jane.doe", "login": "jane.photo"}; ' +
    'or {"profileKey": 12, "languageCode": "de"}.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ...fieldsOf(UpdateSettingsRequest) }),
  outputSchema: Type.Object({ settings: ProfileSettings }, { additionalProperties: false }),
  // A new login cannot be undone for the visitors: the old address is free for anyone to take.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, dryRun, idempotencyKey: _key, ...changes }, { ctx, principal }) => {
    const settings = await profiles.changeSettings(ctx, principal, profileKey, changes, { dryRun })
    return { structured: { settings }, text: doneText(dryRun, `Page settings saved: login ${settings.login}, language ${settings.languageCode ?? 'follows the owner'}.`) }
  },
})
