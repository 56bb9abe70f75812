import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { FORM_SLOT_TYPE } from '../slots/shared/form-submission.ts'

// What each event carries in `data`. These schemas are the single source for the deliveries'
// shapes, the OpenAPI `webhooks` section and the list of event types an endpoint may take.

const PageRef = {
  profileId: Type.Integer({ description: 'The page (profile) id.' }),
  login: Type.String({ description: 'The page address (login).' }),
}

const FormSubmitted = Type.Object(
  {
    ...PageRef,
    slotId: Type.Integer({ description: 'The form block (slot) it was sent through.' }),
    form: Type.Object(
      {
        id: Type.Integer(),
        title: Type.String(),
        fields: Type.Array(Type.Object({ name: Type.String(), label: Type.String(), type: Type.String() }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
    submission: Type.Object(
      {
        id: Type.Integer(),
        createdAt: Type.String({ format: 'date-time' }),
        data: Type.Record(Type.String(), Type.String(), { description: 'Field name → what the visitor typed.' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)

const PageUpdated = Type.Object(
  {
    ...PageRef,
    changes: Type.Object(
      {
        slotsAdded: Type.Array(Type.Integer(), { description: 'Ids of the blocks added.' }),
        slotsRemoved: Type.Array(Type.Integer(), { description: 'Ids of the blocks removed.' }),
        slotsEdited: Type.Array(Type.Integer(), { description: 'Ids of the blocks whose content or visibility changed.' }),
        reordered: Type.Boolean({ description: 'Whether the blocks that stayed changed order.' }),
        profileFields: Type.Array(Type.String(), { description: 'The page fields that changed (title, bio, socials, login, …).' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)

const PageState = Type.Object({ ...PageRef }, { additionalProperties: false })

const ScheduleEdge = Type.Object(
  {
    ...PageRef,
    slotId: Type.Integer(),
    type: Type.String({ description: 'The block type.' }),
    at: Type.String({ format: 'date-time', description: 'When the block started or stopped showing.' }),
  },
  { additionalProperties: false },
)

const AnalyticsDaily = Type.Object(
  {
    ...PageRef,
    date: Type.String({ format: 'date', description: 'The day, in the owner’s time zone.' }),
    timezone: Type.String(),
    views: Type.Integer(),
    uniqueVisitors: Type.Integer(),
    clicks: Type.Integer(),
    blocks: Type.Array(
      Type.Object({ slotId: Type.Integer(), type: Type.String(), title: Type.String(), clicks: Type.Integer() }, { additionalProperties: false }),
    ),
    topSources: Type.Array(Type.Object({ source: Type.String(), views: Type.Integer() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
)

const Test = Type.Object({ message: Type.String() }, { additionalProperties: false })

interface EventType<S extends TSchema> {
  summary: string
  data: S
  example: Static<S>
}

const page = { profileId: 12, login: 'mara.lind' }

/** Every event type an endpoint can take, with its data schema and an example. */
export const WEBHOOK_EVENTS = {
  'form.submitted': {
    summary: 'A visitor sent a form block of one of your pages (a lead).',
    data: FormSubmitted,
    example: {
      ...page,
      slotId: 118,
      form: { id: 7, title: 'Commissions', fields: [{ name: 'email', label: 'E-mail', type: 'email' }] },
      submission: { id: 901, createdAt: '2026-11-27T09:30:00.000Z', data: { email: 'ada@example.com' } },
    },
  } satisfies EventType<typeof FormSubmitted>,
  'page.updated': {
    summary: 'A page or its blocks changed.',
    data: PageUpdated,
    example: { ...page, changes: { slotsAdded: [140], slotsRemoved: [], slotsEdited: [118], reordered: false, profileFields: ['bio'] } },
  } satisfies EventType<typeof PageUpdated>,
  'page.published': { summary: 'A page became public.', data: PageState, example: page } satisfies EventType<typeof PageState>,
  'page.unpublished': { summary: 'A page stopped being public.', data: PageState, example: page } satisfies EventType<typeof PageState>,
  'block.schedule_started': {
    summary: 'A scheduled block started showing.',
    data: ScheduleEdge,
    example: { ...page, slotId: 118, type: FORM_SLOT_TYPE, at: '2026-12-12T09:00:00.000Z' },
  } satisfies EventType<typeof ScheduleEdge>,
  'block.schedule_ended': {
    summary: 'A scheduled block stopped showing.',
    data: ScheduleEdge,
    example: { ...page, slotId: 118, type: FORM_SLOT_TYPE, at: '2026-12-24T23:00:00.000Z' },
  } satisfies EventType<typeof ScheduleEdge>,
  'analytics.daily': {
    summary: 'Yesterday’s figures of a page, once a day after midnight in the owner’s time zone.',
    data: AnalyticsDaily,
    example: {
      ...page,
      date: '2026-11-26',
      timezone: 'Europe/Berlin',
      views: 240,
      uniqueVisitors: 181,
      clicks: 57,
      blocks: [{ slotId: 118, type: FORM_SLOT_TYPE, title: 'Commissions', clicks: 41 }],
      topSources: [{ source: 'instagram', views: 150 }],
    },
  } satisfies EventType<typeof AnalyticsDaily>,
  'webhook.test': {
    summary: 'Sent when you ask for a test event; nothing happened on your pages.',
    data: Test,
    example: { message: 'A test event from Slotline.' },
  } satisfies EventType<typeof Test>,
}

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS
export type WebhookEventData<T extends WebhookEventType> = Static<(typeof WEBHOOK_EVENTS)[T]['data']>

/** The types an endpoint subscribes to (the test event is sent on request, to any endpoint). */
export const SUBSCRIBABLE_EVENTS = (Object.keys(WEBHOOK_EVENTS) as WebhookEventType[]).filter((t) => t !== 'webhook.test')
