import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '../http/schemas.ts'
import { limits } from '../limits.ts'

export const SocialItem = Type.Object(
  { link: Type.String({ description: 'The social link.' }), order: Type.Integer({ description: 'Position in the row.' }) },
  { additionalProperties: false },
)

export const ProfileComputed = Type.Object(
  {
    url: Type.String({ description: 'The public address of the page.' }),
    avatarUrl: Nullable(Type.String()),
    bgImageUrl: Nullable(Type.String()),
    socials: Type.Array(Type.Object({ icon: Type.String() }, { additionalProperties: false }), {
      description: 'The icon derived for each social link, in the order of `socials`.',
    }),
    isMain: Type.Boolean({ description: "The user's main profile." }),
    status: Type.Boolean({ description: 'Published: the public page is served.' }),
  },
  { additionalProperties: false },
)

export const Profile = Type.Object(
  {
    id: Type.Integer(),
    login: Type.String({ description: 'Public address segment.' }),
    title: Nullable(Type.String({ description: 'Shown under the avatar.' })),
    description: Nullable(Type.String({ description: 'Plain text.' })),
    avatar: Nullable(Type.String({ description: 'A file path from upload (square, 800x800 or larger).' })),
    bgImage: Nullable(Type.String({ description: 'A file path from upload (16:9 landscape).' })),
    socials: Type.Array(SocialItem),
    themeId: Type.Integer({ description: 'Read-only: themes are not accepted through the API.' }),
    languageId: Nullable(Type.Integer()),
    computed: ProfileComputed,
    slots: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'With include=slots.' })),
  },
  { additionalProperties: false },
)
export type ProfileResource = Static<typeof Profile>

export const StoreProfileRequest = Type.Object(
  {
    login: Type.String({
      minLength: limits.login.minLength,
      maxLength: limits.login.maxLength,
      pattern: limits.login.pattern,
      description: 'The public address segment; check availability with GET /profiles/check-login.',
      examples: ['jane.doe'],
    }),
  },
  { additionalProperties: false },
)
