import { localDay } from '../analytics/local-day.ts'
import { ownerPrincipal } from '../auth/principal.ts'
import type { User } from '../core/use-cases.ts'
import * as useCases from '../core/use-cases.ts'
import { notFound } from '../kernel/errors.ts'
import { h } from '../slots/shared/html.ts'
import { viewsAndClicksChart } from './chart.ts'
import type { PageInput, PageRow } from './page-routes.ts'
import { choiceOf, periodNav, sendStatisticsCsv, totalsSection } from './statistics.ts'
import { BREAKDOWNS, breakdownTables, clicksTable, type Table, tableSection } from './statistics-tables.ts'

// Every page of the account at once (GET /analytics): the same tables as one page's statistics,
// with a table of the pages first and every block named by its title and its page.

export const accountStatisticsPages: PageRow[] = [
  { method: 'GET', url: '/my-links/statistics', signedIn: true, handler: accountStatisticsPage },
  { method: 'GET', url: '/my-links/statistics.csv', signedIn: true, handler: accountStatisticsCsv },
]

const BASE = '/my-links/statistics'

/** The period's report for the account, the previous period's beside it, and each page's own blocks. */
async function load(p: PageInput<User>) {
  const principal = ownerPrincipal(p.user)
  const choice = choiceOf(p.query, localDay(new Date(), p.user.timezone))
  const report = (await useCases.analytics.forAccount(p.ctx, principal, { ...choice.query, include: 'timeline', compare: true })).data
  const before = report.previous
    ? (await useCases.analytics.forAccount(p.ctx, principal, { dateFrom: report.previous.from, dateTo: report.previous.to, compare: false })).data
    : undefined
  const profiles = await useCases.profiles.list(p.ctx, principal)
  const names = new Map(profiles.map((x) => [x.id, x.title || x.login]))
  const earlier = new Map((before?.profiles ?? []).map((r) => [r.profileId, r]))
  const pages: Table = {
    key: 'pages',
    heading: 'Your pages',
    what: 'Page',
    hint: 'Each of your pages, with its views and the clicks on its links.',
    rows: report.profiles.map((r) => ({
      name: names.get(r.profileId) ?? r.login,
      views: r.views,
      clicks: r.clicks,
      previousViews: before ? (earlier.get(r.profileId)?.views ?? 0) : null,
      previousClicks: before ? (earlier.get(r.profileId)?.clicks ?? 0) : null,
    })),
  }
  // Blocks are counted per page: each page's own report names them by title.
  const perPage = await Promise.all(
    profiles.map(async (x) => ({
      name: names.get(x.id)!,
      clicks: clicksTable((await useCases.analytics.forPage(p.ctx, principal, x.id, { ...choice.query, compare: true })).data),
    })),
  )
  const clicks: Table = {
    ...perPage[0]?.clicks,
    key: 'clicks',
    heading: 'Where people clicked',
    what: 'Block or link',
    hint: 'Every block and social link of your pages, with the clicks it had.',
    rows: perPage.flatMap((x) => x.clicks.rows),
    kinds: perPage.flatMap((x) => (x.clicks.kinds ?? []).map((kind) => `${kind} on ${x.name}`)),
  }
  return { choice, report, tables: [pages, clicks, ...breakdownTables(report, before)] }
}

async function accountStatisticsPage(p: PageInput<User>) {
  const { choice, report, tables } = await load(p)
  const points = (report.timeline ?? []).map((d) => ({ date: d.date, views: d.views, clicks: d.clicks }))
  const csvOf = (table: string) => `${BASE}.csv?${choice.search}&table=${table}`
  return p.render({
    title: 'Statistics of all your pages',
    active: 'my-links',
    body: h`<p><a href="/my-links">← My links</a></p>
<h1>Statistics of all your pages</h1>
${periodNav(BASE, choice, localDay(new Date(), p.user.timezone))}
${totalsSection(report)}
<section class="card" aria-labelledby="daily-h">
<h2 id="daily-h">Day by day</h2>
${viewsAndClicksChart(points, 'chart-all')}
<p class="actions"><a class="button secondary" href="${csvOf('days')}" download>Download “Day by day” (CSV)</a></p>
</section>
${tables.map((t) => tableSection(t, report, csvOf(t.key), 'Your pages have no links yet.'))}`,
  })
}

const TABLES: string[] = ['pages', 'clicks', ...BREAKDOWNS]

/** Each table as a CSV, the days in the owner's time zone. */
async function accountStatisticsCsv(p: PageInput<User>) {
  const which = p.query.table ?? 'days'
  if (which !== 'days' && !TABLES.includes(which)) throw notFound('table', 'There is no such table of statistics.')
  const { report, tables } = await load(p)
  return sendStatisticsCsv(p, report, tables, which, 'all-pages')
}
