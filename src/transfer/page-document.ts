import { type Static, Type } from '@sinclair/typebox'
import { limits, MAX_SOCIAL_ORDER } from '../kernel/limits.ts'
import { VisibilityInput } from '../slots/shared/visibility.ts'
import { Nullable } from '../kernel/schema-helpers.ts'

/**
 * One page as a portable document (`page.json`), the same for every Slotline. A reader
 * refuses any other `format` or `version`; a later version that changes a meaning gets a new
 * number, one that only adds optional fields keeps it.
 */
export const PAGE_DOCUMENT_FORMAT = 'slotline.page'
export const PAGE_DOCUMENT_VERSION = 1

/** Where an archive keeps the images a document names: `files/<name>`, nothing deeper. */
export const FILE_REF_PATTERN = '^files/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$'

const FileRef = (description: string) => Type.String({ pattern: FILE_REF_PATTERN, description, examples: ['files/1.png'] })

const EventRecord = Type.Object(
  {
    title: Type.String({ maxLength: 200 }),
    description: Type.String({ maxLength: 5000 }),
    startsAt: Type.String({ format: 'date-time', description: 'ISO 8601 with offset.' }),
    endsAt: Nullable(Type.String({ format: 'date-time' })),
    timezone: Type.String({ maxLength: 64, description: "IANA zone the times are shown in (empty: the owner's)." }),
    location: Type.String({ maxLength: 500 }),
    link: Type.String({ maxLength: 2048, description: 'Tickets or details page; empty for none.' }),
  },
  {
    additionalProperties: false,
    description: "The event an event slot shows (the dashboard's events). Its id is not carried: the importing service gives a new one.",
  },
)

const FormField = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 60, pattern: '^[a-z][a-z0-9_]*$' }),
    label: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.Union([Type.Literal('text'), Type.Literal('email'), Type.Literal('tel'), Type.Literal('textarea'), Type.Literal('checkbox')]),
    required: Type.Boolean(),
  },
  { additionalProperties: false },
)

const FormRecord = Type.Object(
  {
    title: Type.String({ maxLength: 200 }),
    description: Type.String({ maxLength: 5000 }),
    fields: Type.Array(FormField, { maxItems: 30 }),
    submitLabel: Type.String({ maxLength: 120 }),
  },
  { additionalProperties: false, description: 'The form a form slot shows (fields only: submissions stay with the account that received them).' },
)

export const PageDocumentSlot = Type.Object(
  {
    type: Type.String({
      minLength: 1,
      maxLength: 60,
      description: "A slot type (one of the service's slot types); a type the reading service does not know is kept as it is, read-only.",
    }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description:
        "The slot data in its type's shape, as GET …/slots answers it, except that upload paths (picture `path`, gallery `items[].path`) name an entry of the archive (`files/1.png`). The `eventId`/`formId` of event and form slots are the exporting service's ids: an import stores the record in `event`/`form` and puts its new id there.",
    }),
    event: Type.Optional(EventRecord),
    form: Type.Optional(FormRecord),
    visibility: Type.Optional({
      ...VisibilityInput,
      description: 'Whether and when the slot shows (hidden, startsAt, endsAt); absent: always shown.',
    }),
  },
  { additionalProperties: false },
)

export const PageDocumentFile = Type.Object(
  {
    name: FileRef('The archive entry holding the image.'),
    mime: Type.Union([Type.Literal('image/jpeg'), Type.Literal('image/png'), Type.Literal('image/webp'), Type.Literal('image/gif')]),
    width: Nullable(Type.Integer({ minimum: 1 })),
    height: Nullable(Type.Integer({ minimum: 1 })),
    path: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        description:
          'Where the exporting service stores the image. An import into the account that owns it there reuses it, so the document alone copies the page with its images.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const PageDocument = Type.Object(
  {
    $schema: Type.Optional(Type.String({ maxLength: 2048, description: "Where this document's JSON Schema is served." })),
    format: Type.Literal(PAGE_DOCUMENT_FORMAT),
    version: Type.Literal(PAGE_DOCUMENT_VERSION, { description: 'The document version; a reader refuses any other.' }),
    exportedAt: Type.Optional(Type.String({ maxLength: 64, description: 'When it was exported (ISO 8601); informational, never read back.' })),
    profile: Type.Object(
      {
        login: Type.String({
          minLength: limits.login.minLength,
          maxLength: limits.login.maxLength,
          pattern: limits.login.pattern,
          description: 'The address it had; an import may take another.',
        }),
        title: Nullable(Type.String({ maxLength: 200 })),
        description: Nullable(Type.String({ maxLength: 5000, description: 'Plain text; newlines kept.' })),
        avatar: Nullable(FileRef('The avatar image in the archive.')),
        bgImage: Nullable(FileRef('The background image in the archive.')),
        socials: Type.Array(
          Type.Object(
            {
              link: Type.String({ minLength: 1, maxLength: 2048 }),
              order: Type.Integer({ minimum: 0, maximum: MAX_SOCIAL_ORDER }),
            },
            { additionalProperties: false },
          ),
          { maxItems: limits.socialsPerProfile },
        ),
        languageCode: Nullable(Type.String({ maxLength: 16, description: "The page language (null: the owner's)." })),
        themeId: Type.Integer({ minimum: 1, description: "The theme: the profile's themeId." }),
        published: Type.Boolean({ description: 'Whether the public page is served.' }),
        // Written only when set, so a page without them reads on services that predate them.
        seoTitle: Type.Optional(Type.String({ maxLength: limits.seoTitleLength, description: 'What search results show instead of the title.' })),
        seoDescription: Type.Optional(
          Type.String({ maxLength: limits.seoDescriptionLength, description: 'What search results show instead of the description.' }),
        ),
        seoSubject: Type.Optional(Type.Union([Type.Literal('person'), Type.Literal('organization')], { description: 'Absent: person.' })),
      },
      { additionalProperties: false },
    ),
    slots: Type.Array(PageDocumentSlot, { maxItems: limits.slotsPerProfile, description: 'Every slot in page order.' }),
    files: Type.Array(PageDocumentFile, {
      maxItems: 1000,
      description: 'Every image the page uses, each once, in order of first use (avatar, background, slots).',
    }),
  },
  {
    additionalProperties: false,
    title: 'Slotline page document, version 1',
    description: 'One link page, portable between Slotline services: page.json of a page archive (a zip with the images under files/), or sent alone.',
    examples: [
      {
        format: PAGE_DOCUMENT_FORMAT,
        version: PAGE_DOCUMENT_VERSION,
        exportedAt: '2026-11-25T18:30:00.000Z',
        profile: {
          login: 'jane.doe',
          title: 'Jane Doe',
          description: 'Photographer in Lisbon.',
          avatar: 'files/1.png',
          bgImage: null,
          socials: [{ link: 'https://instagram.com/jane.doe', order: 0 }],
          languageCode: null,
          themeId: 1,
          published: true,
        },
        slots: [
          { type: 'button', data: { title: 'Book a session', subtitle: '', link: 'https://example.com/book', style: 'primary', customize: null } },
          { type: 'picture', data: { path: 'files/2.jpg', link: '', size: 'large' } },
        ],
        files: [
          { name: 'files/1.png', mime: 'image/png', width: 800, height: 800 },
          { name: 'files/2.jpg', mime: 'image/jpeg', width: 800, height: 600 },
        ],
      },
    ],
  },
)
export type PageDocument = Static<typeof PageDocument>
export type PageDocumentSlot = Static<typeof PageDocumentSlot>

/** The document property that carries the record of a record slot, by the record's kind (slots/types.ts RecordRef). */
export const RECORD_PROPERTY = { events: 'event', forms: 'form' } as const

/** What of a record travels: named one by one, so a column added later cannot leak into a versioned format. */
export const RECORD_FIELDS = {
  events: ['title', 'description', 'startsAt', 'endsAt', 'timezone', 'location', 'link'],
  forms: ['title', 'description', 'fields', 'submitLabel'],
} as const

/** What was read and not imported, and why: never dropped silently. */
export const SkippedItem = Type.Object(
  {
    field: Type.String({ description: "Where it was: `slots.3`, `profile.avatar`, `files/7.png`, or the importer's own name for it.", examples: ['slots.3'] }),
    reason: Type.String({ examples: ['The event of this event slot is not in the document, so the slot cannot show anything.'] }),
  },
  { additionalProperties: false },
)
export type SkippedItem = Static<typeof SkippedItem>
