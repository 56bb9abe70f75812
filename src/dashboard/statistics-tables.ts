import type { PageAnalytics } from '../analytics/analytics-schemas.ts'
import { slotTypeOf } from '../slots/registry.ts'
import { h, type SafeHtml } from '../slots/shared/html.ts'
import { linkAsTyped } from './format.ts'

// The statistics page's tables, each also a CSV: where visitors came from, their countries,
// devices and browsers, and where they clicked, with the previous period beside each row.

export const BREAKDOWNS = ['sources', 'countries', 'devices', 'browsers'] as const
export type BreakdownName = (typeof BREAKDOWNS)[number]

export interface Row {
  /** What a person calls the row ("Instagram", "United Kingdom", "Phone"). */
  name: string
  views: number
  clicks: number
  /** Views in the previous period; null when it cannot be told (it fell among "everything else"). */
  previousViews: number | null
  previousClicks: number | null
}

export interface Table {
  key: BreakdownName | 'clicks' | 'pages'
  heading: string
  /** The first column's header. */
  what: string
  /** A line under the heading saying how to read the table. */
  hint: string
  rows: Row[]
  /** Extra columns of the clicks table: each row's kind (block type or social link). */
  kinds?: string[]
}

// In-app browsers and referrers are counted by the site (analytics/visit-origin.ts); people know the app.
const SITES: Record<string, string> = {
  'instagram.com': 'Instagram',
  'threads.net': 'Threads',
  'tiktok.com': 'TikTok',
  'messenger.com': 'Messenger',
  'facebook.com': 'Facebook',
  'x.com': 'X (Twitter)',
  'linkedin.com': 'LinkedIn',
  'snapchat.com': 'Snapchat',
  'pinterest.com': 'Pinterest',
  'whatsapp.com': 'WhatsApp',
  'telegram.org': 'Telegram',
  'wechat.com': 'WeChat',
  'line.me': 'LINE',
  'discord.com': 'Discord',
  'reddit.com': 'Reddit',
  'youtube.com': 'YouTube',
  'bsky.app': 'Bluesky',
}

const DEVICES: Record<string, string> = { mobile: 'Phone', tablet: 'Tablet', desktop: 'Computer' }

const regions = new Intl.DisplayNames(['en-GB'], { type: 'region', fallback: 'code' })

/** A search engine's many country sites read as one name: google.co.uk is still Google. */
function siteName(site: string): string {
  if (SITES[site]) return SITES[site]
  const search = /^(google|bing|duckduckgo|yahoo|ecosia|yandex)\.[a-z.]+$/.exec(site)
  if (search) return `${search[1] === 'duckduckgo' ? 'DuckDuckGo' : search[1][0].toUpperCase() + search[1].slice(1)} (${site})`
  return site
}

const OTHER = 'Everything else'

/** The words a person reads for one value of a breakdown, as the API names it. */
export function valueName(table: BreakdownName, value: string): string {
  if (value === 'other') return OTHER
  if (value === 'unknown') return 'Unknown'
  if (table === 'sources') return value === 'direct' ? 'Direct' : siteName(value)
  if (table === 'countries') return /^[A-Z]{2}$/.test(value) ? (regions.of(value) ?? value) : value
  if (table === 'devices') return DEVICES[value] ?? value
  const app = / app$/.exec(value) ? value.slice(0, -4) : undefined
  return app ? `${siteName(app)} app` : value
}

type BreakdownRow = { views: number; clicks: number } & Record<string, string | number>

const KEYS: Record<BreakdownName, string> = { sources: 'source', countries: 'country', devices: 'device', browsers: 'browser' }

/**
 * One breakdown of the period beside the same breakdown of the previous period. A value the
 * previous period did not list counted nothing then, unless that period had "everything else",
 * which may hold it: then it cannot be told.
 */
function merged(table: BreakdownName, now: BreakdownRow[], before: BreakdownRow[] | undefined): Row[] {
  const key = KEYS[table]
  const earlier = new Map((before ?? []).map((r) => [String(r[key]), r]))
  const hasOther = earlier.has('other')
  return now.map((r) => {
    const value = String(r[key])
    const then = earlier.get(value)
    const unknown = before === undefined || (!then && hasOther && value !== 'other')
    return {
      name: valueName(table, value),
      views: r.views,
      clicks: r.clicks,
      previousViews: unknown ? null : (then?.views ?? 0),
      previousClicks: unknown ? null : (then?.clicks ?? 0),
    }
  })
}

const HEADINGS: Record<BreakdownName, Omit<Table, 'key' | 'rows'>> = {
  sources: {
    heading: 'Where visitors came from',
    what: 'Source',
    hint: '“Direct” means the visitor typed your address, scanned a QR code or came from an app that does not say where from.',
  },
  countries: { heading: 'Countries', what: 'Country', hint: 'Told from the visitor’s internet address, which is not kept.' },
  devices: { heading: 'Devices', what: 'Device', hint: 'The kind of device visitors opened your page on.' },
  browsers: { heading: 'Browsers', what: 'Browser', hint: 'An “app” is the browser inside that app, such as Instagram’s.' },
}

/** The four breakdown tables of a report, each beside the previous period's (undefined: not compared). */
export function breakdownTables(report: Pick<PageAnalytics, BreakdownName>, previous: Pick<PageAnalytics, BreakdownName> | undefined): Table[] {
  return BREAKDOWNS.map((key) => ({
    key,
    ...HEADINGS[key],
    rows: merged(key, report[key] as BreakdownRow[], previous?.[key] as BreakdownRow[] | undefined),
  }))
}

const typeName = (type: string) => slotTypeOf(type)?.title ?? 'Block no longer offered'

/**
 * Clicks by where they happened: blocks now on the page (by their title and type), social
 * links, then whatever the total holds besides (blocks or links removed since), so the rows
 * always add up to the total.
 */
export function clicksTable(report: PageAnalytics): Table {
  const rows: Row[] = [
    ...report.blocks.map((b) => ({ name: b.title, views: 0, clicks: b.clicks, previousViews: null, previousClicks: b.previousClicks })),
    ...report.socials.map((s) => ({
      name: linkAsTyped(s.link),
      views: 0,
      clicks: s.clicks,
      previousViews: null,
      previousClicks: s.previousClicks,
    })),
  ]
  const kinds = [...report.blocks.map((b) => `${typeName(b.type)} block`), ...report.socials.map(() => 'Social link')]
  const listed = rows.reduce((n, r) => n + r.clicks, 0)
  const listedBefore = rows.reduce((n, r) => n + (r.previousClicks ?? 0), 0)
  const other = report.totals.clicks - listed
  const otherBefore = report.previous ? report.previous.clicks - listedBefore : null
  if (other > 0 || (otherBefore ?? 0) > 0) {
    rows.push({ name: 'Removed blocks and links', views: 0, clicks: Math.max(other, 0), previousViews: null, previousClicks: otherBefore })
    kinds.push('No longer on the page')
  }
  return {
    key: 'clicks',
    heading: 'Where people clicked',
    what: 'Block or link',
    hint: 'Every block and social link on your page, with the clicks it had.',
    rows,
    kinds,
  }
}

export const count = (n: number) => n.toLocaleString('en-GB')

/** "up 12 %", "down 3 %", "no change", "new": how a figure moved since the previous period. */
export function change(now: number, before: number | null): string {
  if (before === null) return '–'
  if (now === before) return 'no change'
  if (before === 0) return 'new'
  const rel = Math.round((Math.abs(now - before) / before) * 100)
  return `${now > before ? 'up' : 'down'} ${rel}\u00a0%`
}

const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0)

/** A bar for the eye beside the percentage it draws; the number carries the meaning. */
const bar = (percent: number) =>
  h`<svg class="share-bar" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg"><rect x="0" y="0" width="100" height="8" rx="2" class="share-track"/><rect x="0" y="0" width="${Math.max(percent, percent > 0 ? 1 : 0)}" height="8" rx="2" class="share-fill"/></svg>`

const previous = (n: number | null) => (n === null ? '–' : count(n))

function breakdownBody(t: Table, compared: boolean): SafeHtml {
  const total = t.rows.reduce((n, r) => n + r.views, 0)
  return h`<thead><tr><th scope="col">${t.what}</th><th scope="col" class="num">Views</th>${
    compared ? h`<th scope="col" class="num">Views, previous period</th><th scope="col">Change</th>` : ''
  }<th scope="col" class="share">Share of views</th><th scope="col" class="num">Clicks</th></tr></thead>
<tbody>
${t.rows.map((r) => {
  const pct = share(r.views, total)
  return h`<tr><th scope="row">${r.name}</th><td data-label="Views" class="num">${count(r.views)}</td>${
    compared ? h`<td data-label="Previously" class="num">${previous(r.previousViews)}</td><td data-label="Change">${change(r.views, r.previousViews)}</td>` : ''
  }<td data-label="Share" class="share"><span class="share-pct">${pct}\u00a0%</span>${bar(pct)}</td><td data-label="Clicks" class="num">${count(r.clicks)}</td></tr>\n`
})}</tbody>`
}

function clicksBody(t: Table, totalNow: number, totalBefore: number | null): SafeHtml {
  const compared = totalBefore !== null
  return h`<thead><tr><th scope="col">${t.what}</th><th scope="col">Kind</th><th scope="col" class="num">Clicks</th>${
    compared ? h`<th scope="col" class="num">Clicks, previous period</th><th scope="col">Change</th>` : ''
  }</tr></thead>
<tbody>
${t.rows.map(
  (r, i) =>
    h`<tr><th scope="row">${r.name}</th><td data-label="Kind">${t.kinds?.[i] ?? ''}</td><td data-label="Clicks" class="num">${count(r.clicks)}</td>${
      compared
        ? h`<td data-label="Previously" class="num">${previous(r.previousClicks)}</td><td data-label="Change">${change(r.clicks, r.previousClicks)}</td>`
        : ''
    }</tr>\n`,
)}</tbody>
<tfoot><tr><th scope="row" colspan="2">All clicks</th><td data-label="Clicks" class="num">${count(totalNow)}</td>${
    compared ? h`<td data-label="Previously" class="num">${count(totalBefore)}</td><td data-label="Change">${change(totalNow, totalBefore)}</td>` : ''
  }</tr></tfoot>`
}

/** One table in its own section, named by its heading, with its CSV under it. */
export function tableSection(
  t: Table,
  report: Pick<PageAnalytics, 'totals' | 'previous'>,
  csvHref: string,
  nothingClicked = 'This page has no links yet.',
): SafeHtml {
  const id = `t-${t.key}`
  const compared = report.previous !== null
  const empty = t.key === 'clicks' ? !t.rows.length : !t.rows.some((r) => r.views || r.clicks)
  const nothing = t.key === 'clicks' ? nothingClicked : 'No visits in this period yet.'
  return h`<section class="card stat-table" aria-labelledby="${id}-h">
<h2 id="${id}-h">${t.heading}</h2>
<p class="hint" id="${id}-hint">${t.hint}</p>
${
  empty
    ? h`<p class="muted">${nothing}</p>`
    : h`<div class="table-wrap"><table class="stack" aria-labelledby="${id}-h" aria-describedby="${id}-hint">
${t.key === 'clicks' ? clicksBody(t, report.totals.clicks, report.previous?.clicks ?? null) : breakdownBody(t, compared)}
</table></div>
<p class="actions"><a class="button secondary" href="${csvHref}" download>Download “${t.heading}” (CSV)</a></p>`
}
</section>`
}

/** The table as spreadsheet rows: the same names and numbers, the previous period beside them. */
export function tableCsv(t: Table, compared: boolean): Array<Array<string | number>> {
  const blank = (n: number | null) => (n === null ? '' : n)
  if (t.key === 'clicks') {
    return [
      [t.what, 'Kind', 'Clicks', ...(compared ? ['Clicks, previous period'] : [])],
      ...t.rows.map((r, i) => [r.name, t.kinds?.[i] ?? '', r.clicks, ...(compared ? [blank(r.previousClicks)] : [])]),
    ]
  }
  return [
    compared ? [t.what, 'Views', 'Views, previous period', 'Clicks', 'Clicks, previous period'] : [t.what, 'Views', 'Clicks'],
    ...t.rows.map((r) => (compared ? [r.name, r.views, blank(r.previousViews), r.clicks, blank(r.previousClicks)] : [r.name, r.views, r.clicks])),
  ]
}
