import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '../kernel/schema-helpers.ts'
import { musicSlotType as musicSlot } from '../slots/registry.ts'

// spec, Music: what a lookup answers. The slot it carries is the music type's own data schema,
// so what the lookup builds is exactly what POST …/slots takes.

export const MusicLink = Type.Object(
  {
    platform: Type.String({ description: 'Platform id: spotify, appleMusic, youtubeMusic, deezer, tidal, amazonMusic, …' }),
    label: Type.String({ description: 'Platform name for people.' }),
    icon: Type.String({ description: 'Icon name, as in a music slot’s computed.links[].icon.' }),
    url: Type.String({ description: 'The release on that platform.' }),
  },
  { additionalProperties: false },
)

export const MusicLookupResult = Type.Object(
  {
    query: Type.String({ description: 'The query as sent.' }),
    matchedBy: Type.Union([Type.Literal('upc'), Type.Literal('isrc'), Type.Literal('url'), Type.Literal('title')], {
      description: 'How the query was read.',
    }),
    album: Nullable(Type.String({ description: 'Release (or track) title.' })),
    artist: Nullable(Type.String()),
    thumbnail: Nullable(Type.String({ description: 'Cover image URL.' })),
    links: Type.Array(MusicLink, {
      description: `One link per platform, in the order the slot shows them (at most ${musicSlot.schema.properties.links.maxItems}).`,
    }),
    slot: Type.Object(
      { type: Type.Literal(musicSlot.type), data: musicSlot.schema },
      { additionalProperties: false, description: 'Send this object unchanged to {{slots.create}}.' },
    ),
  },
  { additionalProperties: false },
)
export type MusicLink = Static<typeof MusicLink>
export type MusicLookupResult = Static<typeof MusicLookupResult>
export type MatchedBy = MusicLookupResult['matchedBy']
