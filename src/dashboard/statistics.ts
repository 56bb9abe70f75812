import { addDays, endOfMonth, localDay, startOfMonth } from '../analytics/local-day.ts'
import type { AnalyticsQuery, PageAnalytics } from '../analytics/analytics-schemas.ts'
import { ownerPrincipal } from '../auth/principal.ts'
import * as useCases from '../core/use-cases.ts'
import { h, raw, type SafeHtml } from '../slots/shared/html.ts'
import type { User } from '../core/use-cases.ts'
import { viewsAndClicksChart } from './chart.ts'
import { csv } from './csv.ts'
import type { PageInput, PageRow } from './page-routes.ts'

// A page's statistics as the API computes them (GET /profiles/{profileKey}/analytics): this
// module only chooses the period and lays the answer out.

export const statisticsPages: PageRow[] = [
  { method: 'GET', url: '/my-links/:profileId/statistics', signedIn: true, handler: statisticsPage },
  { method: 'GET', url: '/my-links/:profileId/statistics.csv', signedIn: true, handler: dailyCsv },
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
function choiceOf(query: Record<string, string | undefined>, today: string): Choice {
  const month = query.month ?? ''
  if (monthsOf(today).includes(month)) {
    const from = `${month}-01`
    const end = endOfMonth(from)
    return { query: { dateFrom: from, dateTo: end < today ? end : today }, search: `month=${month}`, label: monthName(month), month }
  }
  const preset = PRESETS.find((p) => p.period === query.period) ?? PRESETS[1]
  return { query: { period: preset.period }, search: `period=${preset.period}`, label: `the last ${preset.label}` }
}

async function load(p: PageInput<User>) {
  const id = /^[1-9]\d{0,9}$/.test(p.params.profileId) ? Number(p.params.profileId) : 0
  const principal = ownerPrincipal(p.user)
  const profile = await useCases.profiles.get(p.ctx, principal, id)
  const choice = choiceOf(p.query, localDay(new Date(), p.user.timezone))
  const report = (await useCases.analytics.forPage(p.ctx, principal, profile.id, { ...choice.query, include: 'timeline', compare: true })).data
  return { profile, choice, report }
}

const percent = (ctr: number) => `${(ctr * 100).toLocaleString('en-GB', { maximumFractionDigits: 1 })} %`
const count = (n: number) => n.toLocaleString('en-GB')

/** "up 12 %", "down 3", "no change": how a figure moved since the previous period. */
function change(now: number, before: number, format: (n: number) => string): string {
  if (now === before) return 'no change'
  if (before === 0) return `up from ${format(0)}`
  const rel = Math.round((Math.abs(now - before) / before) * 100)
  return `${now > before ? 'up' : 'down'} ${rel} %`
}

function metric(name: string, now: number, before: number | undefined, format: (n: number) => string): SafeHtml {
  return h`<div class="metric"><dt>${name}</dt><dd><span class="metric-value">${format(now)}</span>${
    before === undefined ? '' : h`<span class="muted"> previous period: ${format(before)} (${change(now, before, format)})</span>`
  }</dd></div>`
}

/**
 * Clicks by where they happened. Blocks and social links now on the page, then whatever the total
 * holds besides (blocks or links removed since): the rows always add up to the total.
 */
function clickRows(report: PageAnalytics) {
  const rows = [
    ...report.blocks.map((b) => ({ what: b.title || b.type, kind: `Block (${b.type})`, clicks: b.clicks, previous: b.previousClicks })),
    ...report.socials.map((s) => ({ what: s.link, kind: `Social link (${s.icon})`, clicks: s.clicks, previous: s.previousClicks })),
  ]
  const listed = rows.reduce((n, r) => n + r.clicks, 0)
  const listedBefore = rows.reduce((n, r) => n + (r.previous ?? 0), 0)
  const other = report.totals.clicks - listed
  const otherBefore = report.previous ? report.previous.clicks - listedBefore : null
  if (other > 0 || (otherBefore ?? 0) > 0) rows.push({ what: 'Removed blocks and links', kind: 'No longer on the page', clicks: Math.max(other, 0), previous: otherBefore })
  return rows
}

async function statisticsPage(p: PageInput<User>) {
  const { profile, choice, report } = await load(p)
  const base = `/my-links/${profile.id}/statistics`
  const name = profile.title || profile.login
  const t = report.totals
  const prev = report.previous ?? undefined
  const points = (report.timeline ?? []).map((d) => ({ date: d.date, views: d.views, clicks: d.clicks }))
  const rows = clickRows(report)
  const today = localDay(new Date(), p.user.timezone)
  return p.render({
    title: `Statistics · ${name}`,
    active: 'my-links',
    body: h`<p><a href="/my-links/${profile.id}">← ${name}</a></p>
<h1>Statistics of ${name}</h1>
<nav aria-label="Period" class="card">
<p class="actions">${PRESETS.map((pr) => {
      const current = !choice.month && choice.search === `period=${pr.period}`
      return h`<a href="${base}?period=${pr.period}"${current ? raw(' aria-current="page"') : ''}>Last ${pr.label}</a>`
    })}</p>
<form method="get" action="${base}" class="actions">
<label for="f-month">A month</label>
<select id="f-month" name="month">${monthsOf(today).map((m) => h`<option value="${m}"${m === choice.month ? raw(' selected') : ''}>${monthName(m)}</option>`)}</select>
<button type="submit" class="secondary">Show the month</button>
</form>
</nav>
<section class="card" aria-labelledby="totals-h">
<h2 id="totals-h">${report.period.from} to ${report.period.to}</h2>
<dl class="metrics">
${metric('Views', t.views, prev?.views, count)}
${metric('Unique visitors', t.uniqueVisitors, prev?.uniqueVisitors, count)}
${metric('Clicks', t.clicks, prev?.clicks, count)}
${metric('Click-through rate', t.ctr, prev?.ctr, percent)}
</dl>
<p class="hint">${prev ? `The previous period is ${prev.from} to ${prev.to}. ` : ''}Days are counted in your time zone, ${report.period.timezone}. Only people are counted: bots, link previews and browser prefetches are not. Unique visitors are an estimate.</p>
${report.insights.length ? h`<h3>What stands out</h3><ul>${report.insights.map((i) => h`<li>${i.message}</li>`)}</ul>` : ''}
</section>
<section class="card" aria-labelledby="daily-h">
<h2 id="daily-h">Day by day</h2>
${viewsAndClicksChart(points, `chart-${profile.id}`)}
<p class="actions"><a class="button secondary" href="${base}.csv?${choice.search}" download>Download the daily numbers (CSV)</a></p>
</section>
<section class="card" aria-labelledby="clicks-h">
<h2 id="clicks-h">Where people clicked</h2>
${
  rows.length
    ? h`<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">Link</th><th scope="col">Kind</th><th scope="col" class="num">Clicks</th><th scope="col" class="num">Previous period</th></tr></thead>
<tbody>
${rows.map((r) => h`<tr><td>${r.what}</td><td data-label="Kind">${r.kind}</td><td data-label="Clicks" class="num">${count(r.clicks)}</td><td data-label="Previous period" class="num">${r.previous === null ? '–' : count(r.previous)}</td></tr>\n`)}</tbody>
<tfoot><tr><th scope="row" colspan="2">All clicks</th><td data-label="Clicks" class="num">${count(t.clicks)}</td><td data-label="Previous period" class="num">${prev ? count(prev.clicks) : '–'}</td></tr></tfoot>
</table></div>`
    : h`<p class="muted">This page has no links yet.</p>`
}
</section>`,
  })
}

async function dailyCsv(p: PageInput<User>) {
  const { profile, report } = await load(p)
  const body = csv([
    ['Date', 'Views', 'Unique visitors', 'Clicks'],
    ...(report.timeline ?? []).map((d) => [d.date, d.views, d.uniqueVisitors, d.clicks]),
  ])
  return p.reply
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', `attachment; filename="${profile.login}-${report.period.from}-${report.period.to}.csv"`)
    .type('text/csv; charset=utf-8')
    .send(body)
}
