import { Type } from '@sinclair/typebox'
import { lines, mdLink, outbound } from './shared/render.ts'
import { strictObject } from './shared/schema.ts'
import { defineSlotType } from './types.ts'

/** What an event slot shows of its event (the dashboard's events table). */
export interface EventView {
  id: number
  title: string
  description: string
  startsAt: string
  endsAt: string | null
  timezone: string
  location: string
  /** Tickets or details page; empty for none. */
  link: string
}

const asEvent = (record: unknown) => (record && typeof record === 'object' && 'startsAt' in record ? (record as EventView) : undefined)

/** "Sat, 14 Mar 2026, 19:30" in the event's own time zone (UTC when it names none we know). */
function formatEventTime(iso: string, timezone: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }
  try {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: timezone }).format(date)
  } catch {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(date)
  }
}

function when(e: EventView): string {
  const start = formatEventTime(e.startsAt, e.timezone)
  return e.endsAt ? `${start} – ${formatEventTime(e.endsAt, e.timezone)} (${e.timezone})` : `${start} (${e.timezone})`
}

export default defineSlotType({
  type: 'event',
  title: 'Event',
  description:
    'An event card (date, place, tickets link) linked to an event managed in the dashboard. Read-only through the API: event slots ' +
    'can be read, deleted and reordered, never created or changed. data.eventId names the event.',
  writable: false,
  schema: strictObject({ eventId: Type.Integer({ minimum: 1, description: 'Id of the linked event.' }) }),
  computed: strictObject({}),
  enumLabels: {},
  example: { eventId: 1 },
  normalise: (d) => d,
  compute: () => ({}),
  record: (d) => ({ kind: 'event', id: d.eventId }),
  links: (_d, _c, record) => {
    const e = asEvent(record)
    return e?.link ? [e.link] : []
  },

  html(s, r) {
    const e = asEvent(r.record)
    if (!e) return r.h`<article class="slot slot-event slot-unavailable"><p>This event is no longer available.</p></article>`
    const time = r.h`<p class="slot-event-when"><time datetime="${e.startsAt}">${when(e)}</time></p>`
    const place = e.location ? r.h`<p class="slot-event-where">${e.location}</p>` : ''
    const about = e.description ? r.h`<p class="slot-event-about">${lines(r, e.description)}</p>` : ''
    const more = e.link ? outbound(r, s.id, 0, { className: 'slot-event-link' }, 'Details and tickets') : ''
    return r.h`<article class="slot slot-event"><h2>${e.title}</h2>${time}${place}${about}${more}</article>`
  },

  markdown(s, record) {
    const e = asEvent(record)
    if (!e) return `_(event ${s.data.eventId} is no longer available)_`
    const rows = [`**${e.title}**`, `When: ${when(e)}`, e.location ? `Where: ${e.location}` : '', e.description, e.link ? `Details: ${mdLink(e.link, e.link)}` : '']
    return rows.filter(Boolean).join('\n')
  },
})
