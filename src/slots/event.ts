import { Type } from '@sinclair/typebox'
import { isTimeZone } from '../kernel/time-zone.ts'
import { card, RECORD_GONE_CSS } from './shared/block-css.ts'
import { mdText } from './shared/markdown-text.ts'
import type { EventView } from '../kernel/slot-records.ts'
import { lines, mdLink, outbound, words } from './shared/render.ts'
import { strictObject } from './shared/schema-parts.ts'
import { defineSlotType } from './types.ts'

const asEvent = (record: unknown) => (record && typeof record === 'object' && 'startsAt' in record ? (record as EventView) : undefined)

/**
 * English is written as where the page's owner lives: 12 Dec 2026, 14:00 CET in Berlin or Lisbon,
 * Dec 12, 2026, 2:00 PM EST in New York. Bare `en` is American English to Intl, and writes a
 * Berlin evening as "2:00 – 5:00 PM GMT+1"; other languages carry their own conventions.
 */
function localeOf(lang: string, timeZone: string): string {
  if (lang !== 'en') return lang
  if (timeZone.startsWith('America/') || timeZone.startsWith('US/')) return 'en-US'
  if (timeZone.startsWith('Australia/')) return 'en-AU'
  if (timeZone === 'Pacific/Auckland') return 'en-NZ'
  if (timeZone === 'Asia/Kolkata' || timeZone === 'Asia/Calcutta') return 'en-IN'
  return 'en-GB'
}

/**
 * When the event happens, in the page's language: one date with a time range when it starts and
 * ends on the same day ("Sat 17 Apr 2027, 18:00–22:00 WEST"), both ends written out when not.
 * Times are the event's own zone, else the owner's, else UTC.
 */
export function eventWhen(e: Pick<EventView, 'startsAt' | 'endsAt' | 'timezone'>, lang: string, ownerZone?: string): string {
  const start = new Date(e.startsAt)
  if (Number.isNaN(start.getTime())) return e.startsAt
  const end = e.endsAt ? new Date(e.endsAt) : undefined
  const timeZone = [e.timezone, ownerZone].find(isTimeZone) ?? 'UTC'
  const f = new Intl.DateTimeFormat(localeOf(lang, timeZone), {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  })
  return end && end.getTime() > start.getTime() ? f.formatRange(start, end) : f.format(start)
}

export default defineSlotType({
  type: 'event',
  title: 'Event',
  blurb: 'An event with its date, time and place: a market, an opening, a workshop.',
  glyph: 'M4 6h16v14H4zM4 10h16M8 3v5M16 3v5M8 14h3',
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
  record: (d) => ({ kind: 'events', id: d.eventId }),
  links: (_d, _c, record) => {
    const e = asEvent(record)
    return e?.link ? [e.link] : []
  },

  html(s, r) {
    const e = asEvent(r.record)
    const t = words(r)
    if (!e) return r.h`<article class="slot slot-event slot-unavailable"><p>${t.eventGone}</p></article>`
    const time = r.h`<p class="slot-event-when"><time datetime="${e.startsAt}">${eventWhen(e, r.lang ?? 'en', r.timeZone)}</time></p>`
    const place = e.location ? r.h`<p class="slot-event-where">${e.location}</p>` : ''
    const about = e.description ? r.h`<p class="slot-event-about">${lines(r, e.description)}</p>` : ''
    const more = e.link ? outbound(r, s.id, 0, { className: 'slot-event-link' }, t.eventDetails) : ''
    return r.h`<article class="slot slot-event"><h2>${e.title}</h2>${time}${place}${about}${more}</article>`
  },

  markdown(s, record) {
    const e = asEvent(record)
    if (!e) return `_(event ${s.data.eventId} is no longer available)_`
    const rows = [
      `**${mdText(e.title)}**`,
      `When: ${eventWhen(e, 'en-GB')}`,
      e.location ? `Where: ${mdText(e.location)}` : '',
      mdText(e.description),
      e.link ? `Details: ${mdLink(e.link, e.link)}` : '',
    ]
    return rows.filter(Boolean).join('\n')
  },

  css: [
    RECORD_GONE_CSS,
    card('.slot-event'),
    `.slot-event-when {
  margin: 0;
  font-weight: 600;
}
.slot-event-where,
.slot-event-about {
  margin: 4px 0 0;
  color: var(--muted);
}
.slot-event-link {
  display: inline-block;
  margin-top: 12px;
  padding: 8px 16px;
  border-radius: var(--btn-radius);
  background: var(--accent);
  color: var(--on-accent);
  font-weight: 600;
  text-decoration: none;
}`,
  ],
})
