import { type Static, Type } from '@sinclair/typebox'
import { slotTypeOf } from './registry.ts'
import { SLOT_TYPES, type ComputeContext, type SlotView } from './types.ts'
import { ALWAYS_VISIBLE, type SlotVisibility, Visibility } from './shared/visibility.ts'

const nullableTime = (description: string) => Type.Union([Type.String({ description }), Type.Null()])

/** spec, Slot (SlotResource). */
export const Slot = Type.Object(
  {
    id: Type.Integer({ description: 'Slot id; click statistics are tied to it.' }),
    type: Type.String({ description: `One of ${SLOT_TYPES.join(', ')}; another value is a legacy type (supported: false).` }),
    order: Type.Integer({ minimum: 0, description: 'Position on the page, 0 first; always 0..n-1 without gaps.' }),
    supported: Type.Boolean({
      description:
        'False for a legacy slot type (it can be deleted or reordered, not edited), or for stored data its type cannot read any more (send its data again, or delete it).',
    }),
    data: Type.Object({}, { additionalProperties: true, description: 'The body, in the shape of the type’s schema ({{slotTypes.get}}).' }),
    computed: Type.Object({}, { additionalProperties: true, description: 'Server-derived and read-only; sending any of these names in data is 422.' }),
    message: Type.Optional(Type.String({ description: 'Present for unsupported slots: what can still be done with them.' })),
    visibility: Visibility,
    createdAt: nullableTime('ISO 8601.'),
    updatedAt: nullableTime('ISO 8601.'),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: 118,
        type: 'youtube',
        order: 2,
        supported: true,
        data: { title: 'Showreel', description: '', link: 'https://youtu.be/dQw4w9WgXcQ' },
        computed: {
          videoId: 'dQw4w9WgXcQ',
          embedUrl: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
          thumbnailUrl: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
        },
        visibility: { hidden: false, startsAt: null, endsAt: null },
        createdAt: '2026-11-22T09:00:00.000Z',
        updatedAt: '2026-11-22T09:00:00.000Z',
      },
    ],
  },
)
export type SlotResource = Static<typeof Slot>

/** What the resource is built from (a stored slot; the store's Slot fits). */
export interface StoredSlotLike {
  id: number
  type: string
  position: number
  data: unknown
  /** Absent (a row from before visibility existed): always visible. */
  visibility?: SlotVisibility
  createdAt: string | null
  updatedAt: string | null
}

export const unsupportedMessage = (type: string) => `The slot type "${type}" is not supported by the API: this slot can only be deleted or reordered.`

export const unreadableMessage = (slot: { id: number; type: string }) =>
  `This ${slot.type} slot holds stored data its type cannot read any more, so it is not shown on the page. ` +
  `Send its data again with PATCH …/slots/${slot.id}, or delete it.`

/** Stored data as an object: a row written around the API may hold anything JSON can. */
export const asObject = (data: unknown): Record<string, any> => (data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, any>) : {})

/**
 * The one presenter: a stored slot as every face shows it (the API, the public page, click
 * redirects, analytics, markdown). Computed fields are derived now. Legacy types, and rows of
 * a known type whose data the type can no longer read, come back supported: false with a
 * message saying what can still be done: never an exception, whatever the row holds.
 */
export function toSlotResource(slot: StoredSlotLike, c: ComputeContext): SlotResource {
  const def = slotTypeOf(slot.type)
  const data = asObject(slot.data)
  const base = { id: slot.id, type: slot.type, order: slot.position }
  const tail = { visibility: slot.visibility ?? ALWAYS_VISIBLE, createdAt: slot.createdAt, updatedAt: slot.updatedAt }
  const unsupported = (message: string): SlotResource => ({ ...base, supported: false, data, computed: {}, message, ...tail })
  if (!def) return unsupported(unsupportedMessage(slot.type))
  let computed: Record<string, any>
  try {
    computed = asObject(def.compute(data, c))
  } catch {
    return unsupported(unreadableMessage(slot))
  }
  return { ...base, supported: true, data, computed, ...tail }
}

/** What a renderer takes (html, markdown): id, type, data, computed. */
export const toSlotView = (resource: SlotResource): SlotView => ({
  id: resource.id,
  type: resource.type,
  data: resource.data,
  computed: resource.computed,
})
