import { Type } from '@sinclair/typebox'
import { Profile } from '../../profiles/profile-schemas.ts'
import { profiles } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'

export default defineTool({
  name: 'list_profiles',
  title: 'List my pages',
  description:
    'Lists every page (profile) of the account, oldest first, with its id, login, public url, title and images. Call it after ' +
    'get_me to find the profileKey (an id or login) that the page tools take. Example: list_profiles {} → ' +
    '{"profiles": [{"id": 12, "login": "jane.doe", "url": "https://…/jane.doe", …}], "total": 1}.',
  scope: 'profile:read',
  inputSchema: Type.Object({}, { additionalProperties: false }),
  outputSchema: Type.Object({ profiles: Type.Array(Profile), total: Type.Integer() }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (_input, { ctx, principal }) => {
    const list = await profiles.list(ctx, principal)
    const names = list.map((p) => `${p.login} (id ${p.id})`).join(', ')
    return { structured: { profiles: list, total: list.length }, text: list.length ? `${list.length} page(s): ${names}.` : 'No pages yet: create one with create_profile.' }
  },
})
