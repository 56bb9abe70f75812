import { Type } from '@sinclair/typebox'
import { Profile } from '../../profiles/profile-schemas.ts'
import { profiles } from '../../core/use-cases.ts'
import { Slot } from '../../slots/slot-resource.ts'
import { defineTool } from '../define-tool.ts'
import { ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'get_profile',
  title: 'Read a page with its blocks',
  description: 'Reads one page: header, socials and every slot in page order. Call list_profiles first if you do not know the profileKey.',
  scope: 'profile:read',
  inputSchema: Type.Object({ profileKey: ProfileKey }, { additionalProperties: false }),
  outputSchema: Type.Object({ profile: Profile, slots: Type.Array(Slot) }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey }, { ctx, principal }) => {
    const { slots = [], ...profile } = await profiles.get(ctx, principal, profileKey, { include: 'slots' })
    return { structured: { profile, slots }, text: `Page ${profile.login} (id ${profile.id}) at ${profile.computed.url}: ${slots.length} slot(s).` }
  },
})
