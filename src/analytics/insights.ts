import type { BlockStats, Insight, PreviousTotals, Totals } from './analytics-schemas.ts'

/** What the rules look at: one page's numbers for the period. */
export interface PageFacts {
  days: number
  totals: Totals
  previous: PreviousTotals | null
  blocks: Array<BlockStats & { clickable: boolean }>
  viewsByDay: Map<string, number>
}

/** Below this many views in either period a percentage change says more about chance than the page. */
const MIN_VIEWS_FOR_TREND = 20
/** Changes smaller than this (relative) are not worth a sentence. */
const MIN_CHANGE = 0.1

const number = (n: number) => n.toLocaleString('en-US')
const percent = (fraction: number) => `${(fraction * 100).toFixed(fraction < 0.1 ? 1 : 0)}%`
const quoted = (titles: string[]) => titles.map((t) => `"${t}"`).join(', ')
const periodWords = (days: number) => (days === 1 ? 'the day before' : `the previous ${days} days`)

function viewsTrend(f: PageFacts): Insight | undefined {
  const prev = f.previous
  if (!prev) return undefined
  const now = f.totals.views
  if (prev.views === 0) {
    return now >= MIN_VIEWS_FOR_TREND ? { kind: 'views_up', message: `${number(now)} views, up from none in ${periodWords(f.days)}.` } : undefined
  }
  if (Math.max(now, prev.views) < MIN_VIEWS_FOR_TREND) return undefined
  const change = (now - prev.views) / prev.views
  if (Math.abs(change) < MIN_CHANGE) return undefined
  const up = change > 0
  return {
    kind: up ? 'views_up' : 'views_down',
    message: `Views ${up ? 'rose' : 'fell'} ${percent(Math.abs(change))} to ${number(now)} compared with ${periodWords(f.days)} (${number(prev.views)}).`,
  }
}

function ctrTrend(f: PageFacts): Insight | undefined {
  const prev = f.previous
  if (!prev || f.totals.views < MIN_VIEWS_FOR_TREND || prev.views < MIN_VIEWS_FOR_TREND || prev.ctr === 0) return undefined
  const change = (f.totals.ctr - prev.ctr) / prev.ctr
  // Half a percentage point is the smallest move worth reporting on a click-through rate.
  if (Math.abs(change) < MIN_CHANGE || Math.abs(f.totals.ctr - prev.ctr) < 0.005) return undefined
  const up = change > 0
  return {
    kind: up ? 'ctr_up' : 'ctr_down',
    message: `Click-through rate ${up ? 'rose' : 'fell'} from ${percent(prev.ctr)} to ${percent(f.totals.ctr)}${up ? '' : '; the blocks at the top of the page get most clicks, so put the most important one first'}.`,
  }
}

function topBlock(f: PageFacts): Insight | undefined {
  const clicked = f.blocks.filter((b) => b.clicks > 0)
  if (clicked.length === 0) return undefined
  const top = clicked.reduce((a, b) => (b.clicks > a.clicks ? b : a))
  const all = clicked.reduce((n, b) => n + b.clicks, 0)
  const share = clicked.length > 1 ? `, ${percent(top.clicks / all)} of all block clicks` : ''
  return { kind: 'top_block', message: `"${top.title}" was the most clicked block: ${number(top.clicks)} click${top.clicks === 1 ? '' : 's'}${share}.` }
}

function neverClicked(f: PageFacts): Insight | undefined {
  if (f.totals.views === 0) return undefined
  const idle = f.blocks.filter((b) => b.clickable && b.clicks === 0)
  if (idle.length === 0) return undefined
  const shown = idle.slice(0, 5).map((b) => b.title)
  const more = idle.length > shown.length ? ` and ${idle.length - shown.length} more` : ''
  const subject = idle.length === 1 ? '1 block got' : `${idle.length} blocks got`
  return {
    kind: 'blocks_never_clicked',
    message: `${subject} no clicks from ${number(f.totals.views)} views: ${quoted(shown)}${more}. Move ${idle.length === 1 ? 'it' : 'them'} higher or give ${idle.length === 1 ? 'it' : 'them'} a clearer title.`,
  }
}

function bestDay(f: PageFacts): Insight | undefined {
  if (f.days < 2 || f.totals.views === 0) return undefined
  let best: [string, number] | undefined
  let tied = false
  for (const entry of f.viewsByDay) {
    if (!best || entry[1] > best[1]) {
      best = entry
      tied = false
    } else if (entry[1] === best[1]) tied = true
  }
  // A flat week has no best day worth naming.
  if (!best || best[1] === 0 || tied) return undefined
  const label = new Date(`${best[0]}T00:00:00Z`).toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  })
  return { kind: 'best_day', message: `The best day was ${label}, with ${number(best[1])} view${best[1] === 1 ? '' : 's'}.` }
}

/** Rule-based findings about one page, most telling first; each rule speaks only when it has something to say. */
export function pageInsights(f: PageFacts): Insight[] {
  if (f.totals.views === 0 && f.totals.clicks === 0) {
    return [{ kind: 'no_views', message: 'No views in this period yet. Share the page address (or its QR code) to start collecting visits.' }]
  }
  return [viewsTrend(f), ctrTrend(f), topBlock(f), neverClicked(f), bestDay(f)].filter((i): i is Insight => i !== undefined)
}
