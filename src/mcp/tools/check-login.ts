import { profiles } from '../../core/use-cases.ts'
import { LoginCheck, LoginCheckQuery } from '../../profiles/schemas.ts'
import { defineTool } from '../define-tool.ts'

export default defineTool({
  name: 'check_login',
  title: 'Check whether a page address is free',
  description:
    'Answers whether a login (the page address {public_base}/<login>) can be used, and if not why: invalid, reserved or taken. ' +
    'Call it before create_profile, or before update_profile_settings with a new login (pass profile then, so the page\'s own ' +
    'login is not reported as taken). Example: check_login {"login": "jane.doe"} → {"available": true, "reason": null, …}.',
  scope: 'profile:read',
  inputSchema: LoginCheckQuery,
  outputSchema: LoginCheck,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (input, { ctx, principal }) => {
    const verdict = await profiles.checkLogin(ctx, principal, input)
    return { structured: verdict, text: verdict.available ? `${input.login} is available.` : `${input.login} is not available (${verdict.reason}): ${verdict.message}` }
  },
})
