import { DeleteSocialLinkInput, SocialLinkAnswer } from '../../core/use-cases.ts'
import { socialLinks } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'delete_social_link',
  title: 'Remove one social link',
  description: 'Removes the social link of one platform, with its click counts. Call get_profile first and confirm with the user.',
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ...fieldsOf(DeleteSocialLinkInput) }),
  outputSchema: SocialLinkAnswer,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  handler: async ({ profileKey, platform, dryRun }, { ctx, principal }) => {
    const result = await socialLinks.remove(ctx, principal, profileKey, { platform }, { dryRun })
    return { structured: result, text: doneText(dryRun, `Removed the ${platform} link from ${result.profile.login}.`) }
  },
})
