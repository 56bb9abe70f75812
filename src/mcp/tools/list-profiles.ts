import { Type } from '@sinclair/typebox'
import { Profile } from '../../profiles/profile-schemas.ts'
import { profiles } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'

export default defineTool({
  name: 'list_profiles',
  title: 'List my pages',
  description: "Lists the account's pages with id, login and public url. Call it after get_me to find the profileKey other tools take.",
  scope: 'profile:read',
  inputSchema: Type.Object({}, { additionalProperties: false }),
  outputSchema: Type.Object({ profiles: Type.Array(Profile), total: Type.Integer() }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (_input, { ctx, principal }) => {
    const list = await profiles.list(ctx, principal)
    const names = list.map((p) => `${p.login} (id ${p.id})`).join(', ')
    return {
      structured: { profiles: list, total: list.length },
      text: list.length ? `${list.length} page(s): ${names}.` : 'No pages yet: create one with create_profile.',
    }
  },
})
