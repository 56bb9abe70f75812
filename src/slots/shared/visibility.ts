import { type Static, Type } from '@sinclair/typebox'

/**
 * Whether a block shows on the public page. `hidden` takes it off at once; `startsAt`
 * and `endsAt` bound a window (either may be open). Times are ISO 8601; one written without an
 * offset is a wall-clock time in the page owner's time zone, read when it is checked, so a page
 * scheduled for "09:00" follows its owner across a change of zone. Pure: the caller passes `now`.
 */

// A date and a time (minutes at least), an optional fraction and an optional offset. A date
// alone is refused: "until 2026-12-24" could mean the start or the end of that day.
const ISO_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}:\\d{2})?$'
const TIME_PATTERN = new RegExp(ISO_TIME)

const time = (description: string) =>
  Type.Union([Type.String({ maxLength: 40, pattern: ISO_TIME, description, examples: ['2026-12-01T09:00', '2026-12-24T18:00:00+01:00'] }), Type.Null()])

/** The visibility every slot answers with. */
export const Visibility = Type.Object(
  {
    hidden: Type.Boolean({ description: 'true: the block is off the public page (and its click address answers 404) whatever the schedule says.' }),
    startsAt: time('ISO 8601; the block shows from this moment on. Without an offset, a time in the page owner’s time zone. null: from now.'),
    endsAt: time('ISO 8601; the block stops showing at this moment (exclusive). Without an offset, in the owner’s time zone. null: no end.'),
  },
  {
    additionalProperties: false,
    description:
      'When the block shows on the public page (HTML and markdown). A hidden or out-of-window block keeps its id, data and click history; only the public page leaves it out.',
    examples: [{ hidden: false, startsAt: '2026-12-01T09:00', endsAt: null }],
  },
)
export type SlotVisibility = Static<typeof Visibility>

/** What a write may send: any of the three (missing ones keep their value; a new slot starts visible). */
export const VisibilityInput = Type.Object(
  {
    hidden: Type.Optional(Visibility.properties.hidden),
    startsAt: Type.Optional(Visibility.properties.startsAt),
    endsAt: Type.Optional(Visibility.properties.endsAt),
  },
  {
    additionalProperties: false,
    description:
      'Optional. When the block shows on the public page: hidden, and a window from startsAt to endsAt (ISO 8601; a time without ' +
      'offset is read in the page owner’s time zone). Keys left out keep their current value; a new slot is visible. endsAt must be after startsAt.',
    examples: [{ hidden: false, startsAt: '2026-12-01T09:00', endsAt: '2026-12-24T18:00' }],
  },
)
export type VisibilityPatch = Static<typeof VisibilityInput>

export const ALWAYS_VISIBLE: SlotVisibility = Object.freeze({ hidden: false, startsAt: null, endsAt: null })

const zoneFormats = new Map<string, Intl.DateTimeFormat>()

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let f = zoneFormats.get(timeZone)
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      })
    } catch {
      // An unknown zone in users.timezone must not take a page down; UTC is the documented default.
      f = zoneFormat('UTC')
    }
    zoneFormats.set(timeZone, f)
  }
  return f
}

/** The zone's offset from UTC at instant `ms`, in ms (wall clock minus UTC). */
function offsetAt(timeZone: string, ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000
  const parts: Record<string, number> = {}
  for (const p of zoneFormat(timeZone).formatToParts(whole)) if (p.type !== 'literal') parts[p.type] = Number(p.value)
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - whole
}

const DAY = 86_400_000

/**
 * The instant of a wall-clock time (written as if UTC, `wall` ms) in `timeZone`, resolved as
 * Temporal's 'compatible' does: a time that happens twice (clocks go back) is the earlier one; a
 * time that never happens (clocks go forward) is read with the offset in force before the jump,
 * so 02:30 on a spring-forward night in Berlin is 03:30 summer time.
 */
export function zonedInstant(wall: number, timeZone: string): number {
  const before = offsetAt(timeZone, wall - DAY)
  const after = offsetAt(timeZone, wall + DAY)
  const candidates = [wall - before, wall - after].filter((t) => t + offsetAt(timeZone, t) === wall)
  return candidates.length ? Math.min(...candidates) : wall - before
}

/** The instant an ISO 8601 time names (no offset: in `timeZone`), or undefined when it is not a real time. */
export function instantOf(text: string, timeZone: string): number | undefined {
  if (!TIME_PATTERN.test(text)) return undefined
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|([+-])(\d{2}):(\d{2}))?$/.exec(text)!
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0))
  const fraction = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, fraction)
  // Date.UTC rolls 2026-02-30 over into March: a date that is not in the calendar is refused.
  if (new Date(wall).getUTCDate() !== d) return undefined
  if (!m[8]) return zonedInstant(wall, timeZone)
  if (m[8] === 'Z') return wall
  const [oh, om] = [Number(m[10]), Number(m[11])]
  if (oh > 23 || om > 59) return undefined
  return wall - (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000
}

/** The window's bounds as instants (NaN-free: an unreadable stored time counts as absent). */
function bounds(v: SlotVisibility, timeZone: string): { start: number | undefined; end: number | undefined } {
  return {
    start: v.startsAt === null ? undefined : instantOf(v.startsAt, timeZone),
    end: v.endsAt === null ? undefined : instantOf(v.endsAt, timeZone),
  }
}

/** True when the block shows at `now` (ms): not hidden, started, not ended. */
export function isShownAt(v: SlotVisibility, timeZone: string, now: number): boolean {
  if (v.hidden) return false
  if (v.startsAt === null && v.endsAt === null) return true
  const { start, end } = bounds(v, timeZone)
  return (start === undefined || start <= now) && (end === undefined || now < end)
}

/** The first moment after `now` at which the block appears or disappears, or undefined when it never will. */
export function nextChangeAfter(v: SlotVisibility, timeZone: string, now: number): number | undefined {
  if (v.hidden || (v.startsAt === null && v.endsAt === null)) return undefined
  const { start, end } = bounds(v, timeZone)
  const ahead = [start, end].filter((t): t is number => t !== undefined && t > now)
  return ahead.length ? Math.min(...ahead) : undefined
}

/**
 * `patch` over `current`, checked: every time must be a real one, and endsAt after startsAt.
 * Problems come back keyed under `prefix` (`visibility.endsAt`), all at once.
 */
export function mergeVisibility(
  current: SlotVisibility,
  patch: VisibilityPatch | undefined,
  timeZone: string,
  prefix: string,
): { ok: true; value: SlotVisibility } | { ok: false; errors: Record<string, string[]> } {
  const value: SlotVisibility = {
    hidden: patch?.hidden ?? current.hidden,
    startsAt: patch?.startsAt === undefined ? current.startsAt : patch.startsAt,
    endsAt: patch?.endsAt === undefined ? current.endsAt : patch.endsAt,
  }
  const errors: Record<string, string[]> = {}
  const read = (key: 'startsAt' | 'endsAt') => {
    const text = value[key]
    if (text === null) return undefined
    const at = instantOf(text, timeZone)
    if (at === undefined)
      errors[`${prefix}.${key}`] = [`Not a real date and time: send ISO 8601 such as 2026-12-01T09:00 (owner's time zone) or 2026-12-01T09:00:00Z.`]
    return at
  }
  const start = read('startsAt')
  const end = read('endsAt')
  if (start !== undefined && end !== undefined && end <= start) {
    errors[`${prefix}.endsAt`] = [`Must be after startsAt (${value.startsAt}); a block cannot stop showing before it starts. Send null for no end.`]
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value }
}
