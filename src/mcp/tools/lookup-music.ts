import { LookupQuery } from '../../core/use-cases.ts'
import { MusicLookupResult } from '../../music/lookup-result.ts'
import { music } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'

export default defineTool({
  name: 'lookup_music',
  title: 'Find a release and get a ready music slot',
  description:
    'Finds an album or track in the music catalogues from a UPC/EAN barcode, an ISRC, a link on any platform (Spotify, Apple ' +
    'Music, YouTube Music, Deezer, …) or a title (add artist to narrow it), and answers its links on every platform plus slot: ' +
    'pass that slot unchanged in create_slots. Call it before adding a music block. Limited to 15 lookups per minute. ' +
    'Example: lookup_music {"query": "Good Things", "artist": "Aloe Blacc"} → {"album": "Good Things", "slot": {"type": "music", "data": {…}}, …}.',
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
