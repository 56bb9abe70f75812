import { Type } from '@sinclair/typebox'
import { profiles } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'get_profile_markdown',
  title: 'Read a page as markdown',
  description: 'The page as a visitor reads it, in markdown. Use it after building or changing a page to review it.',
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
