import { MoveSocialLinkInput, SocialLinkAnswer } from '../../core/use-cases.ts'
import { socialLinks } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'move_social_link',
  title: 'Move one social link in the row',
  description: 'Moves the social link of one platform to a new place in the row (0 first). Call get_profile first for the current row.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ...fieldsOf(MoveSocialLinkInput) }),
  outputSchema: SocialLinkAnswer,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, platform, position, dryRun }, { ctx, principal }) => {
    const result = await socialLinks.move(ctx, principal, profileKey, { platform, position }, { dryRun })
    const row = result.profile.computed.socials.map((s) => s.icon).join(', ')
    return { structured: result, text: doneText(dryRun, `Moved the ${platform} link to place ${position}; the row is now: ${row}.`) }
  },
})
