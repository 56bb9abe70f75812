import { type FieldErrors, invalid } from '../kernel/errors.ts'
import { limits } from '../kernel/limits.ts'
import { addDays, daysBetween, endOfMonth, localDay, startOfMonth } from './local-day.ts'
import { type AnalyticsQuery, type Bucket, INCLUDES, type PeriodName } from './analytics-schemas.ts'

/** An analytics query with its dates worked out in the owner's time zone. */
export interface ResolvedQuery {
  from: string
  to: string
  /** Length in days, both ends included. */
  days: number
  previous: { from: string; to: string } | undefined
  timezone: string
  bucket: Bucket
  timeline: boolean
  /** The owner's today; dataStartsAt and retention are counted from it. */
  today: string
}

const DEFAULT_PERIOD: PeriodName = 'last28'

function preset(name: PeriodName, today: string): [string, string] {
  switch (name) {
    case 'today':
      return [today, today]
    case 'yesterday':
      return [addDays(today, -1), addDays(today, -1)]
    case 'last7':
      return [addDays(today, -6), today]
    case 'last28':
      return [addDays(today, -27), today]
    case 'last90':
      return [addDays(today, -89), today]
    case 'thisMonth':
      return [startOfMonth(today), today]
    case 'lastMonth': {
      const last = addDays(startOfMonth(today), -1)
      return [startOfMonth(last), endOfMonth(last)]
    }
  }
}

/**
 * spec, Analytics: presets and dates are days in the owner's time zone, inclusive at both ends;
 * a period spans at most 366 days (422 otherwise), and `previous` is the period of equal length
 * just before it.
 */
export function resolveQuery(query: AnalyticsQuery, timezone: string, now: Date = new Date()): ResolvedQuery {
  const today = localDay(now, timezone)
  const errors: FieldErrors = {}
  const hasDates = query.dateFrom !== undefined || query.dateTo !== undefined
  if (query.period !== undefined && hasDates) {
    errors.period = ['Send either period or dateFrom/dateTo, not both.']
  }
  const include = (query.include ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const unknown = include.filter((s) => !(INCLUDES as readonly string[]).includes(s))
  if (unknown.length) errors.include = [`Unknown include ${unknown.map((u) => `"${u}"`).join(', ')}; allowed: ${INCLUDES.join(', ')}.`]

  let from: string
  let to: string
  if (hasDates) {
    to = query.dateTo ?? today
    from = query.dateFrom ?? addDays(to, -27)
  } else {
    ;[from, to] = preset(query.period ?? DEFAULT_PERIOD, today)
  }
  const days = daysBetween(from, to) + 1
  if (days < 1) errors.dateFrom = [`dateFrom (${from}) must be on or before dateTo (${to}).`]
  else if (days > limits.analyticsPeriodDays) {
    errors.dateTo = [`A period spans at most ${limits.analyticsPeriodDays} days; ${from} to ${to} spans ${days}. Split the request.`]
  }
  if (Object.keys(errors).length) throw invalid(errors)

  return {
    from,
    to,
    days,
    previous: query.compare === false ? undefined : { from: addDays(from, -days), to: addDays(from, -1) },
    timezone,
    bucket: query.bucket ?? 'day',
    timeline: include.includes('timeline'),
    today,
  }
}

/** The first day the retention window still keeps, counted from the owner's today. */
export const retentionStart = (today: string) => addDays(today, -(limits.analyticsRetentionDays - 1))
