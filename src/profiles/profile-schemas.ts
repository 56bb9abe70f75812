import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '../kernel/schema-helpers.ts'
import { limits, MAX_SOCIAL_ORDER } from '../kernel/limits.ts'
import { Slot } from '../slots/slot-resource.ts'

export const SocialItem = Type.Object(
  {
    link: Type.String({ description: 'The social link as stored (scheme completed).', examples: ['https://instagram.com/jane.doe'] }),
    order: Type.Integer({ description: 'Position in the row of icons, distinct within the page; socials are listed by it.', examples: [0] }),
  },
  { additionalProperties: false, description: 'Its icon is in computed.socials at the same index.' },
)

export const ProfileComputed = Type.Object(
  {
    url: Type.String({ description: 'The public address of the page: {public_base}/<login>.', examples: ['https://slotline.example/jane.doe'] }),
    avatarUrl: Nullable(Type.String({ description: 'Public URL of the avatar file.' })),
    bgImageUrl: Nullable(Type.String({ description: 'Public URL of the background image file.' })),
    socials: Type.Array(
      Type.Object(
        { icon: Type.String({ description: 'Platform detected from the link host or scheme; `link` when none matches.', examples: ['instagram'] }) },
        { additionalProperties: false },
      ),
      { description: 'The icon derived for each social link, in the order of `socials`.' },
    ),
    isMain: Type.Boolean({ description: "The user's main profile: the first one created, unless another was marked main." }),
    status: Type.Boolean({ description: 'Published: the public page is served.' }),
  },
  { additionalProperties: false },
)

const SeoSubject = Type.Union([Type.Literal('person'), Type.Literal('organization')], {
  description: 'Who the page speaks for, in the structured data search engines read (a Person or an Organization whose sameAs are the socials).',
})

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
    seoTitle: Nullable(Type.String({ description: 'Search results and link previews show it; null: the title.' })),
    seoDescription: Nullable(Type.String({ description: 'Search results and link previews show it; null: the description.' })),
    seoSubject: SeoSubject,
    computed: ProfileComputed,
    slots: Type.Optional(Type.Array(Slot, { description: 'Present with include=slots: every slot of the page, in page order.' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: 42,
        login: 'jane.doe',
        title: 'Jane Doe',
        description: 'Photographer in Lisbon.',
        avatar: 'u1/2026/11/avatar-3f9a.webp',
        bgImage: null,
        socials: [{ link: 'https://instagram.com/jane.doe', order: 0 }],
        themeId: 1,
        languageId: null,
        seoTitle: null,
        seoDescription: null,
        seoSubject: 'person',
        computed: {
          url: 'https://slotline.example/jane.doe',
          avatarUrl: 'https://slotline.example/static/u1/2026/11/avatar-3f9a.webp',
          bgImageUrl: null,
          socials: [{ icon: 'instagram' }],
          isMain: true,
          status: true,
        },
      },
    ],
  },
)
export type ProfileResource = Static<typeof Profile>

export const StoreProfileRequest = Type.Object(
  {
    login: Type.String({
      minLength: limits.login.minLength,
      maxLength: limits.login.maxLength,
      pattern: limits.login.pattern,
      description:
        "The public address segment; check availability with {{profiles.checkLogin}}. Digits only is allowed (the page is /<digits>), but a page key of digits is then read as the page's id.",
      examples: ['jane.doe'],
    }),
  },
  { additionalProperties: false, examples: [{ login: 'jane.doe' }] },
)

export const SocialWriteItem = Type.Object(
  {
    link: Type.String({
      minLength: 1,
      maxLength: 2048,
      format: 'link',
      description: 'A missing scheme is completed to https://. Allowed schemes: http, https, mailto, tel, whatsapp.',
      examples: ['instagram.com/jane.doe', 'mailto:jane@example.com'],
    }),
    order: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_SOCIAL_ORDER,
        description:
          'Position in the row (0 to 999999999); defaults to the index in the array. Orders may repeat: socials sharing one stay in the order sent, and the later one (with any after it that would then collide) is stored one higher, so stored orders are distinct.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'A social link to write. The icon is derived from the link by the server: sending `icon` (or any other key) is 422.',
  },
)

export const UpdateProfileRequest = Type.Object(
  {
    title: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'Shown under the avatar; null clears it.', examples: ['Jane Doe'] }))),
    description: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 5000,
          description: 'Plain text: tags are stripped, newlines are kept and rendered as line breaks; null clears it.',
          examples: ['Photographer in Lisbon.\nBookings open for spring.'],
        }),
      ),
    ),
    avatar: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 1024,
          description: 'A path returned by {{files.upload}} (one of your uploads, not a URL); square, 800x800 or larger. null removes it.',
          examples: ['u1/2026/11/avatar-3f9a.webp'],
        }),
      ),
    ),
    bgImage: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 1024,
          description: 'A path returned by {{files.upload}} (one of your uploads); 16:9 landscape, 1600x900 or larger. null removes it.',
          examples: ['u1/2026/11/cover-77b2.webp'],
        }),
      ),
    ),
    seoTitle: Type.Optional(
      Nullable(
        Type.String({
          maxLength: limits.seoTitleLength,
          description: 'The title search results and link previews show; null or empty: the page title.',
          examples: ['Jane Doe, wedding photographer in Lisbon'],
        }),
      ),
    ),
    seoDescription: Type.Optional(
      Nullable(
        Type.String({
          maxLength: limits.seoDescriptionLength,
          description: 'Plain text search results and link previews show; null or empty: the start of the description.',
          examples: ['Weddings and portraits in Lisbon. Bookings open for spring.'],
        }),
      ),
    ),
    seoSubject: Type.Optional(SeoSubject),
    socials: Type.Optional(
      Type.Array(SocialWriteItem, {
        maxItems: limits.socialsPerProfile,
        description: `Replaces every social link (at most ${limits.socialsPerProfile}); [] removes them all. Icons come back in computed.socials.`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Every field is optional: omitted fields are left untouched, null clears a field. The body may be omitted.',
    examples: [
      {
        title: 'Jane Doe',
        description: 'Photographer in Lisbon.',
        socials: [
          { link: 'instagram.com/jane.doe', order: 0 },
          { link: 'mailto:jane@example.com', order: 1 },
        ],
      },
    ],
  },
)
export type UpdateProfileRequest = Static<typeof UpdateProfileRequest>

export const LoginCheckQuery = Type.Object({
  login: Type.String({ maxLength: 255, description: 'The login to check.', examples: ['jane.doe'] }),
  profile: Type.Optional(
    Type.String({
      maxLength: 255,
      description: 'Id or login of one of your profiles: its current login is not reported as taken (checking a rename). Digits only is always an id.',
      examples: ['42'],
    }),
  ),
})

export const LoginCheck = Type.Object(
  {
    login: Type.String({ description: 'The login as checked.' }),
    profile: Nullable(Type.String({ description: 'The `profile` parameter as sent, or null.' })),
    available: Type.Boolean({ description: 'True when {{profiles.changeSettings}} (or {{profiles.create}}) would accept it.' }),
    reason: Nullable(
      Type.Union([Type.Literal('invalid'), Type.Literal('reserved'), Type.Literal('taken')], {
        description: 'invalid: length or characters; reserved: one of the reserved words; taken: another page has it. null when available.',
      }),
    ),
    message: Type.String({ description: 'A sentence saying why, for people.' }),
  },
  {
    additionalProperties: false,
    examples: [{ login: 'jane.doe', profile: null, available: false, reason: 'taken', message: 'The login "jane.doe" is already taken.' }],
  },
)
export type LoginCheck = Static<typeof LoginCheck>

export const LanguageOption = Type.Object(
  {
    id: Type.Integer({ examples: [1] }),
    code: Type.String({ description: 'ISO 639-1 code.', examples: ['en'] }),
    name: Type.String({ description: 'The name in the language itself.', examples: ['English'] }),
  },
  { additionalProperties: false },
)

export const ProfileSettings = Type.Object(
  {
    profileId: Type.Integer(),
    login: Type.String({ description: 'The public address segment.' }),
    languageId: Nullable(Type.Integer({ description: "null: the page follows its owner's language." })),
    languageCode: Nullable(Type.String({ description: 'Code of languageId, or null.' })),
    computed: Type.Object(
      {
        url: Type.String({ description: 'The public address of the page.' }),
        effectiveLanguageCode: Type.String({
          description: "The language the page actually renders in: languageCode, or the owner's language when that is null.",
        }),
      },
      { additionalProperties: false },
    ),
    options: Type.Object(
      {
        languages: Type.Array(LanguageOption, { description: 'The active languages a page can be set to.' }),
        login: Type.Object(
          {
            minLength: Type.Integer({ examples: [limits.login.minLength] }),
            maxLength: Type.Integer({ examples: [limits.login.maxLength] }),
            pattern: Type.String({ examples: [limits.login.pattern] }),
            reserved: Type.Array(Type.String(), { description: 'Words no login may be (compared case-insensitively).' }),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        profileId: 42,
        login: 'jane.doe',
        languageId: null,
        languageCode: null,
        computed: { url: 'https://slotline.example/jane.doe', effectiveLanguageCode: 'en' },
        options: {
          languages: [
            { id: 1, code: 'en', name: 'English' },
            { id: 2, code: 'de', name: 'Deutsch' },
          ],
          login: { minLength: 4, maxLength: 60, pattern: '^[a-zA-Z0-9._]+$', reserved: ['adm', 'agreements', 'api'] },
        },
      },
    ],
  },
)
export type ProfileSettings = Static<typeof ProfileSettings>

export const UpdateSettingsRequest = Type.Object(
  {
    login: Type.Optional(
      Type.String({
        minLength: limits.login.minLength,
        maxLength: limits.login.maxLength,
        pattern: limits.login.pattern,
        description:
          'A new public address. The old address stops working at once, with no redirect: links, QR codes and NFC tags to it break. Check it first with {{profiles.checkLogin}}.',
        examples: ['jane.photo'],
      }),
    ),
    languageCode: Type.Optional(
      Nullable(
        Type.String({
          minLength: 2,
          maxLength: 16,
          description: "A code from options.languages; null makes the page follow its owner's language.",
          examples: ['de'],
        }),
      ),
    ),
    languageId: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, description: 'The same choice by id (options.languages); send this or languageCode.', examples: [2] })),
    ),
  },
  {
    additionalProperties: false,
    description: 'Changes the login or the page language; omitted fields are left untouched.',
    examples: [{ languageCode: 'de' }, { login: 'jane.photo' }],
  },
)
export type UpdateSettingsRequest = Static<typeof UpdateSettingsRequest>
