import { h, type SafeHtml } from '../slots/shared/html.ts'

export interface DayPoint {
  date: string
  views: number
  clicks: number
}

const W = 360
const H = 170
const PAD = { left: 30, right: 6, top: 10, bottom: 22 }

/** A round ceiling for the axis: 1, 2, 5, 10, 20, 50… at or above the largest value. */
function niceMax(n: number): number {
  if (n <= 4) return Math.max(n, 1)
  const power = 10 ** Math.floor(Math.log10(n))
  return [1, 2, 5, 10].map((m) => m * power).find((c) => c >= n)!
}

const shortDate = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })

/**
 * Views (bars) and clicks (a line) per day, drawn on the server as SVG: it needs no script and
 * scales with the page. The same numbers follow in a table for screen readers and for anyone
 * who wants the figures.
 */
export function viewsAndClicksChart(points: DayPoint[], id: string): SafeHtml {
  const max = niceMax(Math.max(0, ...points.map((p) => Math.max(p.views, p.clicks))))
  const innerW = W - PAD.left - PAD.right
  const innerH = H - PAD.top - PAD.bottom
  const step = innerW / Math.max(points.length, 1)
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH
  const x = (i: number) => PAD.left + i * step + step / 2
  const views = points.reduce((n, p) => n + p.views, 0)
  const clicks = points.reduce((n, p) => n + p.clicks, 0)
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(p.clicks).toFixed(1)}`).join(' ')
  const first = points[0]?.date
  const last = points.at(-1)?.date
  return h`<figure>
<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-title ${id}-desc" xmlns="http://www.w3.org/2000/svg">
<title id="${id}-title">Views and clicks per day</title>
<desc id="${id}-desc">${first && last ? `From ${shortDate(first)} to ${shortDate(last)}: ${views} views and ${clicks} clicks in all.` : 'No days to show.'}</desc>
<line x1="${PAD.left}" y1="${y(0)}" x2="${W - PAD.right}" y2="${y(0)}" stroke="currentColor" stroke-opacity="0.3"/>
<line x1="${PAD.left}" y1="${y(max)}" x2="${W - PAD.right}" y2="${y(max)}" stroke="currentColor" stroke-opacity="0.1"/>
<text x="${PAD.left - 6}" y="${y(max) + 4}" text-anchor="end" font-size="12" fill="currentColor">${max}</text>
<text x="${PAD.left - 6}" y="${y(0) + 4}" text-anchor="end" font-size="12" fill="currentColor">0</text>
${points.map((p, i) => h`<rect x="${(x(i) - step * 0.35).toFixed(1)}" y="${y(p.views).toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${(y(0) - y(p.views)).toFixed(1)}" rx="2" class="v"><title>${shortDate(p.date)}: ${p.views} views, ${p.clicks} clicks</title></rect>`)}
${points.length ? h`<path d="${line}" class="c" fill="none" stroke-width="2.5" stroke-linejoin="round"/>` : ''}
${first ? h`<text x="${PAD.left}" y="${H - 6}" font-size="12" fill="currentColor">${shortDate(first)}</text>` : ''}
${last ? h`<text x="${W - PAD.right}" y="${H - 6}" font-size="12" text-anchor="end" fill="currentColor">${shortDate(last)}</text>` : ''}
</svg>
<figcaption><ul class="legend"><li><span class="swatch views" aria-hidden="true"></span>Views (bars)</li><li><span class="swatch clicks" aria-hidden="true"></span>Clicks (line)</li></ul></figcaption>
</figure>
<details><summary>The numbers, day by day</summary>
<div class="table-wrap"><table><thead><tr><th scope="col">Day</th><th scope="col" class="num">Views</th><th scope="col" class="num">Clicks</th></tr></thead><tbody>
${points.map((p) => h`<tr><td>${shortDate(p.date)}</td><td class="num">${p.views}</td><td class="num">${p.clicks}</td></tr>`)}
</tbody></table></div>
</details>`
}

export interface BlockClicks {
  slotId: number
  title: string
  type: string
  clicks: number
}

/** The most clicked blocks as labelled bars, longest first. */
export function topBlocksChart(blocks: BlockClicks[], limit = 5): SafeHtml {
  const top = [...blocks]
    .filter((b) => b.clicks > 0)
    .sort((a, b) => b.clicks - a.clicks || a.slotId - b.slotId)
    .slice(0, limit)
  if (!top.length) return h`<p class="muted">No block was clicked in these 28 days.</p>`
  const max = top[0].clicks
  return h`<ol class="bars">
${top.map(
  (b) => h`<li><span>${b.title || b.type}</span> <span class="muted">(${b.type})</span>
<svg class="bar-svg" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true" xmlns="http://www.w3.org/2000/svg"><rect x="0" y="0" width="${((b.clicks / max) * 100).toFixed(1)}" height="8" rx="2" class="c-fill"/></svg>
<span class="num">${b.clicks} ${b.clicks === 1 ? 'click' : 'clicks'}</span></li>
`,
)}</ol>`
}
