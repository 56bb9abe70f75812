import { Type } from '@sinclair/typebox'
import { Identity } from '../../auth/identity.ts'
import { account } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'

export default defineTool({
  name: 'get_me',
  title: 'Who am I connected as',
  description: 'Who this connection acts for, whether it can write, the limits left and the time zone. Call it first, before any other tool.',
  scope: 'profile:read',
  inputSchema: Type.Object({}, { additionalProperties: false }),
  advertiseOutput: true,
  outputSchema: Identity,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (_input, { ctx, principal }) => {
    const me = await account.me(ctx, principal)
    return {
      structured: me,
      text: `Connected as ${me.name} (user ${me.userId}); ${me.canWrite ? 'can read and write' : 'read only'}; ${me.limits.profiles.used}/${me.limits.profiles.max} profiles.`,
    }
  },
})
