/** Calendar dates (YYYY-MM-DD) in an owner's time zone, and date arithmetic on them. */

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    } catch {
      // An unknown zone in users.timezone must not lose events; UTC is the documented default.
      f = formatter('UTC')
    }
    formatters.set(timeZone, f)
  }
  return f
}

// Every zone offset in use is a multiple of 15 minutes, so one lookup per zone and quarter hour
// answers every event in it; the intake calls this once per event.
const QUARTER_HOUR = 15 * 60_000
const dayCache = new Map<string, string>()

/** The calendar date of `at` in `timeZone`, e.g. 2026-03-01 for 2026-02-28T23:30Z in Europe/Berlin. */
export function localDay(at: Date | number, timeZone: string): string {
  const ms = typeof at === 'number' ? at : at.getTime()
  const key = `${timeZone} ${Math.floor(ms / QUARTER_HOUR)}`
  let day = dayCache.get(key)
  if (day === undefined) {
    const parts = formatter(timeZone).formatToParts(ms)
    const get = (type: string) => parts.find((p) => p.type === type)!.value
    day = `${get('year')}-${get('month')}-${get('day')}`
    if (dayCache.size > 50_000) dayCache.clear()
    dayCache.set(key, day)
  }
  return day
}

const DAY_MS = 86_400_000
const toMs = (day: string) => Date.parse(`${day}T00:00:00Z`)
const fromMs = (ms: number) => new Date(ms).toISOString().slice(0, 10)

const nextDays = new Map<string, string>()
export function addDays(day: string, n: number): string {
  if (n !== 1) return fromMs(toMs(day) + n * DAY_MS)
  // Walking a period day by day is the common case; remember each step (a few thousand dates at most).
  let next = nextDays.get(day)
  if (next === undefined) {
    next = fromMs(toMs(day) + DAY_MS)
    if (nextDays.size > 20_000) nextDays.clear()
    nextDays.set(day, next)
  }
  return next
}
/** Whole days from `a` to `b` (b - a). */
export const daysBetween = (a: string, b: string): number => Math.round((toMs(b) - toMs(a)) / DAY_MS)
/** 0 = Monday … 6 = Sunday (ISO weeks start on Monday). */
export const weekday = (day: string): number => (new Date(toMs(day)).getUTCDay() + 6) % 7
export const startOfWeek = (day: string): string => addDays(day, -weekday(day))
export const startOfMonth = (day: string): string => `${day.slice(0, 8)}01`
export const endOfMonth = (day: string): string => addDays(startOfMonth(addDays(startOfMonth(day), 32)), -1)
/** True for a real calendar date written YYYY-MM-DD. */
