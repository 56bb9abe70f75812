import { Type } from '@sinclair/typebox'
import { profiles } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'get_profile_markdown',
  title: 'Read a page as markdown',
  description:
    'The whole page as markdown, the way a visitor reads it: title, description, socials, then every block in page order with ' +
    'its real texts (empty blocks are marked empty). Use it to review a page after building or changing it; no call is needed ' +
    'first besides knowing the profileKey. Example: get_profile_markdown {"profileKey": "jane.doe"} → {"markdown": "# Jane Doe\\n…", "tokens": 212}.',
  scope: 'profile:read',
  inputSchema: Type.Object({ profileKey: ProfileKey }, { additionalProperties: false }),
  outputSchema: Type.Object(
    { markdown: Type.String(), tokens: Type.Integer({ description: 'Token count of the markdown.' }) },
    { additionalProperties: false },
  ),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey }, { ctx, principal }) => {
    const page = await profiles.markdown(ctx, principal, profileKey)
    return { structured: page, text: page.markdown }
  },
})
