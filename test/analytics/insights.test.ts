import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type PageFacts, pageInsights } from '../../src/analytics/insights.ts'

const totals = (views: number, clicks: number) => ({ views, uniqueVisitors: views, clicks, ctr: views ? Math.round((clicks / views) * 10_000) / 10_000 : 0 })
const block = (title: string, clicks: number, clickable = true) => ({
  slotId: 1,
  type: 'button',
  title,
  clicks,
  uniqueClicks: clicks,
  previousClicks: 0,
  clickable,
})

function facts(over: Partial<PageFacts>): PageFacts {
  return {
    days: 7,
    totals: totals(100, 5),
    previous: { from: '2026-01-01', to: '2026-01-07', ...totals(100, 5) },
    blocks: [],
    viewsByDay: new Map([
      ['2026-01-08', 10],
      ['2026-01-09', 30],
    ]),
    ...over,
  }
}

const kinds = (f: PageFacts) => pageInsights(f).map((i) => i.kind)

describe('page insights', () => {
  it('reports falling views and a falling click-through rate with advice', () => {
    const out = pageInsights(facts({ totals: totals(60, 1), previous: { from: '2026-01-01', to: '2026-01-07', ...totals(100, 5) } }))
    assert.deepEqual(
      out.map((i) => i.kind),
      ['views_down', 'ctr_down', 'best_day'],
    )
    assert.match(out[0]!.message, /fell 40% to 60 .*previous 7 days \(100\)/)
    assert.match(out[1]!.message, /from 5\.0% to 1\.7%.*put the most important one first/)
  })

  it('stays quiet about changes under 10 % and about periods with few views', () => {
    assert.deepEqual(kinds(facts({ totals: totals(105, 5) })), ['best_day'])
    assert.deepEqual(kinds(facts({ totals: totals(12, 0), previous: { from: '2026-01-01', to: '2026-01-07', ...totals(5, 0) } })), ['best_day'])
  })

  it('leaves trends out when there is no previous period', () => {
    assert.deepEqual(kinds(facts({ previous: null, totals: totals(500, 50) })), ['best_day'])
  })

  it('names the top block with its share and only clickable blocks as never clicked', () => {
    const out = pageInsights(facts({ blocks: [block('Shop', 30), block('Blog', 10), block('Divider', 0, false), block('Tip jar', 0)] }))
    assert.match(out.find((i) => i.kind === 'top_block')!.message, /"Shop" was the most clicked block: 30 clicks, 75% of all block clicks\./)
    assert.match(out.find((i) => i.kind === 'blocks_never_clicked')!.message, /^1 block got no clicks from 100 views: "Tip jar"\. Move it higher/)
  })

  it('names no best day when the busiest days tie, or for a one-day period', () => {
    const flat = new Map([
      ['2026-01-08', 10],
      ['2026-01-09', 10],
    ])
    assert.deepEqual(kinds(facts({ viewsByDay: flat })), [])
    assert.deepEqual(kinds(facts({ days: 1 })), [])
    assert.match(pageInsights(facts({}))[0]!.message, /Friday, 9 January 2026, with 30 views/)
  })

  it('says there were no views instead of anything else', () => {
    assert.deepEqual(kinds(facts({ totals: totals(0, 0), blocks: [block('Shop', 0)] })), ['no_views'])
  })
})
