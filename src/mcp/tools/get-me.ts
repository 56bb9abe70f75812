import { Type } from '@sinclair/typebox'
import { Identity } from '../../auth/identity.ts'
import { account } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'

export default defineTool({
  name: 'get_me',
  title: 'Who am I connected as',
  description:
    'Answers who this connection acts for, whether it can write (canWrite, abilities), how much of each limit is left ' +
    '(profiles, slots per page, rate limits, upload sizes) and the time zone analytics days are counted in. Call it first, ' +
    'before any other tool. Example: get_me {} → {"userId": 7, "canWrite": true, "limits": {"profiles": {"used": 1, "max": 100}, …}}.',
  scope: 'profile:read',
  inputSchema: Type.Object({}, { additionalProperties: false }),
  outputSchema: Identity,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (_input, { ctx, principal }) => {
    const me = await account.me(ctx, principal)
    return { structured: me, text: `Connected as ${me.name} (user ${me.userId}); ${me.canWrite ? 'can read and write' : 'read only'}; ${me.limits.profiles.used}/${me.limits.profiles.max} profiles.` }
  },
})
