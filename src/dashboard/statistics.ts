import { addDays, endOfMonth, localDay, startOfMonth } from '../analytics/local-day.ts'
import type { AnalyticsQuery, PageAnalytics } from '../analytics/analytics-schemas.ts'
import { ownerPrincipal } from '../auth/principal.ts'
import * as useCases from '../core/use-cases.ts'
import { h, raw, type SafeHtml } from '../slots/shared/html.ts'
import type { User } from '../core/use-cases.ts'
import { notFound } from '../kernel/errors.ts'
import { viewsAndClicksChart } from './chart.ts'
import { csv } from './csv.ts'
import { BREAKDOWNS, breakdownTables, change, clicksTable, count, type Table, tableCsv, tableSection } from './statistics-tables.ts'
import type { PageInput, PageRow } from './page-routes.ts'

// A page's statistics as the API computes them (GET /profiles/{profileKey}/analytics): this
// module only chooses the period and lays the answer out.

export const statisticsPages: PageRow[] = [
  { method: 'GET', url: '/my-links/:profileId/statistics', signedIn: true, handler: statisticsPage },
  { method: 'GET', url: '/my-links/:profileId/statistics.csv', signedIn: true, handler: statisticsCsv },
]

const PRESETS = [
  { period: 'last7', label: '7 days' },
  { period: 'last28', label: '28 days' },
  { period: 'last90', label: '90 days' },
] as const

interface Choice {
  query: AnalyticsQuery
  /** The query string that names this choice again (links, the CSV). */
  search: string
  label: string
  month?: string
}

const monthName = (month: string) => new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' })

/** The twelve months a person may pick, this one first, in their own time zone. */
function monthsOf(today: string): string[] {
  const months: string[] = []
  let day = startOfMonth(today)
  for (let i = 0; i < 12; i++) {
    months.push(day.slice(0, 7))
    day = startOfMonth(addDays(day, -1))
  }
  return months
}

/** The period in the address: a preset, a month (YYYY-MM among the last twelve), else 28 days. */
export function choiceOf(query: Record<string, string | undefined>, today: string): Choice {
  const month = query.month ?? ''
  if (monthsOf(today).includes(month)) {
    const from = `${month}-01`
    const end = endOfMonth(from)
    return { query: { dateFrom: from, dateTo: end < today ? end : today }, search: `month=${month}`, label: monthName(month), month }
  }
  const preset = PRESETS.find((p) => p.period === query.period) ?? PRESETS[1]
  return { query: { period: preset.period }, search: `period=${preset.period}`, label: `the last ${preset.label}` }
}

/** The period's report and, to set beside its breakdowns, the previous period's (the same use case). */
async function load(p: PageInput<User>) {
  const id = /^[1-9]\d{0,9}$/.test(p.params.profileId) ? Number(p.params.profileId) : 0
  const principal = ownerPrincipal(p.user)
  const profile = await useCases.profiles.get(p.ctx, principal, id)
  const choice = choiceOf(p.query, localDay(new Date(), p.user.timezone))
  const report = (await useCases.analytics.forPage(p.ctx, principal, profile.id, { ...choice.query, include: 'timeline', compare: true })).data
  const before = report.previous
    ? (await useCases.analytics.forPage(p.ctx, principal, profile.id, { dateFrom: report.previous.from, dateTo: report.previous.to, compare: false })).data
    : undefined
  return { profile, choice, report, tables: [clicksTable(report), ...breakdownTables(report, before)] }
}

const percent = (ctr: number) => `${(ctr * 100).toLocaleString('en-GB', { maximumFractionDigits: 1 })}\u00a0%`

/** "1 Nov 2026": a day as people write it. */
const dayName = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
const span = (from: string, to: string) => (from === to ? dayName(from) : `${dayName(from)} to ${dayName(to)}`)

function metric(name: string, now: number, before: number | undefined, format: (n: number) => string): SafeHtml {
  return h`<div class="metric"><dt>${name}</dt><dd><span class="metric-value">${format(now)}</span>${
    before === undefined
      ? ''
      : h`<span class="muted">previous period: ${format(before)} (${before === 0 && now > 0 ? `up from ${format(0)}` : change(now, before)})</span>`
  }</dd></div>`
}

export function periodNav(base: string, choice: Choice, today: string): SafeHtml {
  return h`<nav aria-label="Period" class="card">
<p class="actions">${PRESETS.map((pr) => {
    const current = !choice.month && choice.search === `period=${pr.period}`
    return h`<a href="${base}?period=${pr.period}"${current ? raw(' aria-current="page"') : ''}>Last ${pr.label}</a>`
  })}</p>
<form method="get" action="${base}" class="actions">
<label for="f-month">A month</label>
<select id="f-month" name="month">${choice.month ? '' : h`<option value="" selected>Choose a month</option>`}${monthsOf(today).map((m) => h`<option value="${m}"${m === choice.month ? raw(' selected') : ''}>${monthName(m)}</option>`)}</select>
<button type="submit" class="secondary">Show the month</button>
</form>
</nav>`
}

export function totalsSection(report: Pick<PageAnalytics, 'period' | 'totals' | 'previous'> & { insights?: PageAnalytics['insights'] }): SafeHtml {
  const t = report.totals
  const prev = report.previous ?? undefined
  return h`<section class="card" aria-labelledby="totals-h">
<h2 id="totals-h">${span(report.period.from, report.period.to)}</h2>
<dl class="metrics">
${metric('Views', t.views, prev?.views, count)}
${metric('Unique visitors', t.uniqueVisitors, prev?.uniqueVisitors, count)}
${metric('Clicks', t.clicks, prev?.clicks, count)}
${metric('Click-through rate', t.ctr, prev?.ctr, percent)}
</dl>
<p class="hint">${prev ? `The previous period is ${span(prev.from, prev.to)}. ` : ''}Days are counted in your time zone, ${report.period.timezone}. Only people are counted: bots, link previews and browser prefetches are not, and neither are your own visits while signed in. Unique visitors are an estimate.</p>
${report.insights?.length ? h`<h3>What stands out</h3><ul>${report.insights.map((i) => h`<li>${i.message}</li>`)}</ul>` : ''}
</section>`
}

async function statisticsPage(p: PageInput<User>) {
  const { profile, choice, report, tables } = await load(p)
  const base = `/my-links/${profile.id}/statistics`
  const name = profile.title || profile.login
  const points = (report.timeline ?? []).map((d) => ({ date: d.date, views: d.views, clicks: d.clicks }))
  const csvOf = (table: string) => `${base}.csv?${choice.search}&table=${table}`
  const [clicks, sources, countries, devices, browsers] = tables
  return p.render({
    title: `Statistics · ${name}`,
    active: 'my-links',
    body: h`<p><a href="/my-links/${profile.id}">← ${name}</a></p>
<h1>Statistics of ${name}</h1>
${periodNav(base, choice, localDay(new Date(), p.user.timezone))}
${totalsSection(report)}
<section class="card" aria-labelledby="daily-h">
<h2 id="daily-h">Day by day</h2>
${viewsAndClicksChart(points, `chart-${profile.id}`)}
<p class="actions"><a class="button secondary" href="${csvOf('days')}" download>Download “Day by day” (CSV)</a></p>
</section>
${tableSection(clicks, report, csvOf('clicks'))}
${tableSection(sources, report, csvOf('sources'))}
${tableSection(countries, report, csvOf('countries'))}
${tableSection(devices, report, csvOf('devices'))}
${tableSection(browsers, report, csvOf('browsers'))}`,
  })
}

/** Each table of the page as a CSV; the days are the owner's, and their time zone heads the column. */
async function statisticsCsv(p: PageInput<User>) {
  const which = p.query.table ?? 'days'
  if (which !== 'days' && !tableNames.includes(which)) throw notFound('table', 'There is no such table of statistics.')
  const { profile, report, tables } = await load(p)
  return sendStatisticsCsv(p, report, tables, which, profile.login)
}

type CsvReport = Pick<PageAnalytics, 'period' | 'timeline'> & { previous: unknown }

/** One table of a statistics page as a download named `<name>-<table>-<from>-<to>.csv`: the days, or one of `tables`. */
export function sendStatisticsCsv(p: PageInput<User>, report: CsvReport, tables: Table[], which: string, name: string) {
  const rows =
    which === 'days'
      ? [
          [`Day (${report.period.timezone})`, 'Views', 'Unique visitors', 'Clicks'],
          ...(report.timeline ?? []).map((d) => [d.date, d.views, d.uniqueVisitors, d.clicks]),
        ]
      : tableCsv(tables.find((t) => t.key === which)!, report.previous !== null)
  return p.reply
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', `attachment; filename="${name}-${which}-${report.period.from}-${report.period.to}.csv"`)
    .type('text/csv; charset=utf-8')
    .send(csv(rows))
}

const tableNames: string[] = ['clicks', ...BREAKDOWNS]
