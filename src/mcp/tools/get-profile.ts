import { Type } from '@sinclair/typebox'
import { Profile } from '../../profiles/profile-schemas.ts'
import { profiles } from '../../core/use-cases.ts'
import { Slot } from '../../slots/slot-resource.ts'
import { defineTool } from '../define-tool.ts'
import { ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'get_profile',
  title: 'Read a page with its blocks',
  description:
    'Reads one page: title, description, avatar, background, socials, public url, and every slot (block) in page order with its ' +
    'data and computed fields. Call list_profiles first if you do not know the profileKey. Example: get_profile ' +
    '{"profileKey": "jane.doe"} → {"profile": {"id": 12, "login": "jane.doe", …}, "slots": [{"id": 118, "type": "button", …}]}.',
  scope: 'profile:read',
  inputSchema: Type.Object({ profileKey: ProfileKey }, { additionalProperties: false }),
  outputSchema: Type.Object({ profile: Profile, slots: Type.Array(Slot) }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ profileKey }, { ctx, principal }) => {
    const { slots = [], ...profile } = await profiles.get(ctx, principal, profileKey, { include: 'slots' })
    return { structured: { profile, slots }, text: `Page ${profile.login} (id ${profile.id}) at ${profile.computed.url}: ${slots.length} slot(s).` }
  },
})
