import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '../kernel/schema-helpers.ts'
import { CommaList } from '../kernel/schema-helpers.ts'

export const PERIODS = ['today', 'yesterday', 'last7', 'last28', 'last90', 'thisMonth', 'lastMonth'] as const
export type PeriodName = (typeof PERIODS)[number]
export const BUCKETS = ['day', 'week', 'month'] as const
export type Bucket = (typeof BUCKETS)[number]
/** The optional parts `include` may ask for. */
export const INCLUDES = ['timeline'] as const

const IsoDate = (description: string) => Type.String({ format: 'date', description, examples: ['2026-11-01'] })

export const AnalyticsQuery = Type.Object(
  {
    period: Type.Optional(
      Type.Union(
        PERIODS.map((p) => Type.Literal(p)),
        {
          description:
            "A preset in the owner's time zone: today, yesterday, last7 / last28 / last90 (ending today, today included), thisMonth (1st to today), lastMonth. Without period and dates: last28. Not combinable with dateFrom/dateTo.",
        },
      ),
    ),
    dateFrom: Type.Optional(IsoDate("First day of the period (inclusive, owner's time zone). Without dateTo the period ends today.")),
    dateTo: Type.Optional(IsoDate('Last day of the period (inclusive). Without dateFrom the period is the 28 days ending on dateTo. At most 366 days in all.')),
    bucket: Type.Optional(
      Type.Union(
        BUCKETS.map((b) => Type.Literal(b)),
        { description: 'Timeline granularity: day (default), week (ISO weeks, Monday first) or month.' },
      ),
    ),
    include: Type.Optional(
      CommaList(INCLUDES, {
        maxLength: 100,
        description: 'Comma-separated extras; `timeline` adds views, visitors and clicks per bucket.',
        examples: ['timeline'],
      }),
    ),
    compare: Type.Optional(
      Type.Boolean({
        description: 'Compare with the previous period of equal length (default true): fills `previous` and each `previousClicks`. false leaves them null.',
      }),
    ),
  },
  { additionalProperties: false },
)
export type AnalyticsQuery = Static<typeof AnalyticsQuery>

export const Period = Type.Object(
  {
    from: Type.String({ format: 'date', description: 'First day, inclusive.' }),
    to: Type.String({ format: 'date', description: 'Last day, inclusive.' }),
    timezone: Type.String({ description: "The owner's time zone the days are counted in ({{account.me}} analytics.timezone)." }),
    bucket: Type.Union(BUCKETS.map((b) => Type.Literal(b))),
  },
  { additionalProperties: false },
)
export type Period = Static<typeof Period>

const counts = {
  views: Type.Integer({ minimum: 0, description: 'Page views by people (crawlers, link previews and prefetches are not counted).' }),
  uniqueVisitors: Type.Integer({
    minimum: 0,
    description: 'Approximate distinct visitors (HyperLogLog). Visitor keys rotate daily, so a person returning on another day counts again.',
  }),
  clicks: Type.Integer({ minimum: 0, description: 'Clicks on links that leave the page.' }),
  ctr: Type.Number({ minimum: 0, description: 'Click-through rate: clicks ÷ views as a fraction (0.034 = 3.4 %); 0 without views.' }),
}

export const Totals = Type.Object(counts, { additionalProperties: false })
export type Totals = Static<typeof Totals>

export const PreviousTotals = Type.Object(
  { from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }), ...counts },
  { additionalProperties: false, description: 'The period of equal length just before this one.' },
)
export type PreviousTotals = Static<typeof PreviousTotals>

export const TimelinePoint = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'First day of the bucket inside the period.' }),
    views: counts.views,
    uniqueVisitors: counts.uniqueVisitors,
    clicks: counts.clicks,
  },
  { additionalProperties: false },
)
export type TimelinePoint = Static<typeof TimelinePoint>

export const BlockStats = Type.Object(
  {
    slotId: Type.Integer(),
    type: Type.String(),
    title: Type.String({ description: "The block's own words (title, event or form title, album, picture description…), else its type's name." }),
    clicks: Type.Integer({ minimum: 0 }),
    uniqueClicks: Type.Integer({ minimum: 0, description: 'Approximate distinct visitors who clicked; per-block uniques do not sum to the total.' }),
    previousClicks: Nullable(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
)
export type BlockStats = Static<typeof BlockStats>

export const SocialStats = Type.Object(
  {
    order: Type.Integer({ description: "The social link's order (how clicks are told apart)." }),
    link: Type.String(),
    icon: Type.String(),
    clicks: Type.Integer({ minimum: 0 }),
    previousClicks: Nullable(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
)
export type SocialStats = Static<typeof SocialStats>

/** One row of a breakdown, named by its dimension (`source`, `country`, `device`, `browser`). */
const breakdownOf = <K extends string>(key: K, description: string, examples: string[]) =>
  Type.Array(
    Type.Object(
      {
        [key]: Type.String({ description, examples }),
        views: Type.Integer({ minimum: 0 }),
        clicks: Type.Integer({ minimum: 0 }),
      } as Record<K, ReturnType<typeof Type.String>> & { views: ReturnType<typeof Type.Integer>; clicks: ReturnType<typeof Type.Integer> },
      { additionalProperties: false },
    ),
    {
      maxItems: 11,
      description: `The period's top 10 by views (then clicks), each with its views and clicks; the rest summed as "other". Visits of the owner (a dashboard session) and of bots are not counted.`,
    },
  )

export const Breakdowns = {
  sources: breakdownOf(
    'source',
    'Where visitors came from: the link\'s utm_source when it has one, else the app whose in-app browser opened the page (instagram.com, tiktok.com, facebook.com, x.com, linkedin.com…), else the referring site\'s registrable domain, else "direct".',
    ['instagram.com', 'google.com', 'direct', 'newsletter'],
  ),
  countries: breakdownOf('country', 'ISO 3166-1 alpha-2 code from the client address (offline lookup; the address is not kept), or "unknown".', [
    'GB',
    'US',
    'unknown',
  ]),
  devices: breakdownOf('device', 'mobile, tablet or desktop, from the user agent.', ['mobile', 'desktop']),
  browsers: breakdownOf('browser', 'Browser family (Chrome, Safari, Firefox, Edge…), or "<app> app" for an in-app browser.', [
    'Chrome',
    'Safari',
    'instagram.com app',
  ]),
}

export const INSIGHT_KINDS = ['no_views', 'views_up', 'views_down', 'ctr_up', 'ctr_down', 'top_block', 'blocks_never_clicked', 'best_day'] as const
export const Insight = Type.Object(
  {
    kind: Type.Union(INSIGHT_KINDS.map((k) => Type.Literal(k))),
    message: Type.String({ description: 'One plain-English sentence or two, ready to show.' }),
  },
  { additionalProperties: false },
)
export type Insight = Static<typeof Insight>

export const PageAnalytics = Type.Object(
  {
    profileId: Type.Integer(),
    login: Type.String(),
    period: Period,
    totals: Totals,
    previous: Nullable(PreviousTotals),
    blocks: Type.Array(BlockStats, { description: 'Every block now on the page, in page order. Clicks of deleted blocks count only in totals.' }),
    socials: Type.Array(SocialStats, { description: 'Every social link now on the profile, by order.' }),
    ...Breakdowns,
    timeline: Type.Optional(Type.Array(TimelinePoint, { description: 'Present with include=timeline; one point per bucket, empty ones included.' })),
    insights: Type.Array(Insight, { description: 'Short findings: trend of views and click-through rate, top block, blocks never clicked, best day.' }),
  },
  { additionalProperties: false },
)
export type PageAnalytics = Static<typeof PageAnalytics>

export const ProfileRow = Type.Object({ profileId: Type.Integer(), login: Type.String(), ...counts }, { additionalProperties: false })
export type ProfileRow = Static<typeof ProfileRow>

export const AccountAnalytics = Type.Object(
  {
    period: Period,
    totals: Totals,
    previous: Nullable(PreviousTotals),
    profiles: Type.Array(ProfileRow, { description: 'One row per page of the account, oldest page first.' }),
    ...Breakdowns,
    timeline: Type.Optional(Type.Array(TimelinePoint)),
  },
  { additionalProperties: false },
)
export type AccountAnalytics = Static<typeof AccountAnalytics>

export const AnalyticsMeta = Type.Object(
  {
    generatedAt: Type.String({ format: 'date-time', description: 'When this answer was computed.' }),
    cacheSeconds: Type.Integer({ description: 'Answers are reused for this long; a repeat within it may not show newer visits.' }),
    retentionDays: Type.Integer({ description: 'Days of data kept; older days are purged.' }),
    dataStartsAt: Type.String({ format: 'date', description: 'The first day with data still kept (today when nothing was recorded yet).' }),
    uniquesAreApproximate: Type.Boolean({ description: 'Always true: uniques come from HyperLogLog sketches, about 0.8 % error.' }),
  },
  { additionalProperties: false },
)
export type AnalyticsMeta = Static<typeof AnalyticsMeta>
