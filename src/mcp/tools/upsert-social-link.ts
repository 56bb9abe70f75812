import { SocialLinkAnswer, UpsertSocialLinkInput } from '../../core/use-cases.ts'
import { socialLinks } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { doneText } from '../dry-run.ts'
import { fieldsOf, ProfileKey, writeInput } from '../tool-schemas.ts'

export default defineTool({
  name: 'upsert_social_link',
  title: 'Add or replace one social link',
  description: "Adds one social link, or replaces the page's link on the same platform; the others stay. Use it instead of update_profile to change one link.",
  scope: 'profile:write',
  inputSchema: writeInput({ profileKey: ProfileKey, ...fieldsOf(UpsertSocialLinkInput) }),
  outputSchema: SocialLinkAnswer,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey, link, position, dryRun }, { ctx, principal }) => {
    const result = await socialLinks.upsert(ctx, principal, profileKey, { link, position }, { dryRun })
    return { structured: result, text: doneText(dryRun, `The ${result.platform} link was ${result.outcome} on ${result.profile.login}.`) }
  },
})
