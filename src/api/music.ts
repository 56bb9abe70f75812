import { Type } from '@sinclair/typebox'
import { DataOf } from '../http/schemas.ts'
import { route, routes } from '../http/routes.ts'
import { NonBlankString } from '../core/schemas.ts'
import { MusicLookupResult } from '../music/lookup-result.ts'
import { EMPTY_MUSIC_QUERY } from '../music/query.ts'
import { musicUseCases } from '../core/music-use-cases.ts'

export const LookupQuery = Type.Object({
  query: NonBlankString({
    maxLength: 500,
    blankMessage: EMPTY_MUSIC_QUERY,
    description:
      'What you have: a UPC or EAN barcode (12 or 13 digits, spaces allowed), an ISRC (12 characters, dashes allowed), a link to the release or track on any music platform (Spotify, Apple Music, YouTube Music, Deezer, TIDAL, Amazon Music, SoundCloud, Yandex Music, …), or the release title.',
    examples: ['720642462928', 'USRC17607839', 'https://open.spotify.com/album/1DFixLWuPkv3KT3TnV35m3', 'Good Things'],
  }),
  artist: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'Narrows a title search to this artist; ignored for a UPC, ISRC or link.',
      examples: ['Aloe Blacc'],
    }),
  ),
  type: Type.Optional(
    Type.Union([Type.Literal('album'), Type.Literal('track')], {
      description: 'What a title-plus-artist search looks for (album unless told); ignored otherwise.',
      examples: ['track'],
    }),
  ),
})

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
