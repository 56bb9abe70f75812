import { LookupQuery } from '../../core/use-cases.ts'
import { MusicLookupResult } from '../../music/lookup-result.ts'
import { music } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'

export default defineTool({
  name: 'lookup_music',
  title: 'Find a release and get a ready music slot',
  description: 'Finds a release by barcode, ISRC, link or title and answers its links with a ready music slot. Pass that slot to create_slots after.',
  scope: 'profile:read',
  inputSchema: LookupQuery,
  outputSchema: MusicLookupResult,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  limit: 'music',
  handler: async (input, { ctx, principal }) => {
    const found = await music.lookup(ctx, principal, input)
    return {
      structured: found,
      text: `Found ${found.album ?? 'a release'}${found.artist ? ` by ${found.artist}` : ''} (${found.matchedBy}) on ${found.links.length} platform(s); pass slot to create_slots.`,
    }
  },
})
