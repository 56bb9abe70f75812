import { DataOf } from '../http/envelope-schemas.ts'
import { route, routes } from '../http/routes.ts'
import { MusicLookupResult } from '../music/lookup-result.ts'
import { LookupQuery, music as musicUseCases } from '../core/use-cases.ts'

export default routes('Music', 'Music lookup: from a barcode, recording code, link or title to a ready music slot.', '/v1/music', [
  route({
    method: 'GET',
    url: '/lookup',
    operationId: 'lookupMusic',
    summary: 'Find a release by UPC, ISRC, link or title and get a ready music slot',
    description:
      'The first of two steps to a music slot: this call finds the release in the music catalogues (Deezer, Apple/iTunes) and its link on every platform (Odesli), and answers `slot`, which POST /profiles/{profileKey}/slots takes unchanged. A 12–13 digit query is a UPC, a 12-character code like USRC17607839 an ISRC, a link is looked up on every platform, anything else is searched as a release title (add `artist` to narrow it, `type=track` to find a song). Answers are cached for 24 hours. 404 when no catalogue knows the release; 503 when the catalogues cannot be reached (retry in a minute). Limited to 15 lookups per minute per token on top of the global limits.',
    scope: 'profile:read',
    query: LookupQuery,
    reply: { 200: DataOf(MusicLookupResult) },
    errors: [404, 503],
    limit: 'music',
    handler: ({ ctx, principal, query }) => musicUseCases.lookup(ctx, principal, query),
  }),
])
