import { profiles } from '../../core/use-cases.ts'
import { Type } from '@sinclair/typebox'
import { LoginCheck, LoginCheckQuery } from '../../profiles/profile-schemas.ts'
import { defineTool } from '../define-tool.ts'
import { ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'check_login',
  title: 'Check whether a page address is free',
  description:
    'Answers whether a login (the last part of a page\'s public url) can be used, and if not why: invalid, reserved or taken. ' +
    'Call it before create_profile, or before update_profile_settings with a new login (pass that page\'s profileKey then, so ' +
    'its own login is not reported as taken). Example: check_login {"login": "jane.doe"} → {"available": true, "reason": null, …}.',
  scope: 'profile:read',
  inputSchema: Type.Object(
    {
      login: LoginCheckQuery.properties.login,
      profileKey: Type.Optional({ ...ProfileKey, description: 'Optional. The page being renamed: its own current login is not reported as taken.' }),
    },
    { additionalProperties: false },
  ),
  outputSchema: LoginCheck,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ login, profileKey }, { ctx, principal }) => {
    const input = { login, ...(profileKey !== undefined && { profile: String(profileKey) }) }
    const verdict = await profiles.checkLogin(ctx, principal, input)
    return { structured: verdict, text: verdict.available ? `${input.login} is available.` : `${input.login} is not available (${verdict.reason}): ${verdict.message}` }
  },
})
