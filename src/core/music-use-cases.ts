import { Type } from '@sinclair/typebox'
import { type Principal, requireAbility } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { musicLookupService } from '../music/lookup.ts'
import type { MusicLookupResult } from '../music/lookup-result.ts'
import { EMPTY_MUSIC_QUERY, type MusicQueryInput } from '../music/query.ts'
import { NonBlankString } from '../kernel/schema-helpers.ts'

/** What a lookup takes; the API's query string and the MCP tool's input are this. */
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

/** spec, GET /music/lookup: a UPC, ISRC, link or title → a release and a music slot ready to post. */
async function lookup(ctx: AppContext, principal: Principal, input: MusicQueryInput): Promise<MusicLookupResult> {
  requireAbility(principal, 'profile:read')
  return musicLookupService.lookup(ctx, input)
}

export const musicUseCases = Object.freeze({ lookup })
