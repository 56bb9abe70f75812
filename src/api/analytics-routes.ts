import { Type } from '@sinclair/typebox'
import { CACHE_SECONDS } from '../analytics/answer-cache.ts'
import { AccountAnalytics, AnalyticsMeta, AnalyticsQuery, PageAnalytics } from '../analytics/analytics-schemas.ts'
import { route, routes, withMeta } from '../http/routes.ts'
import { DataWithMeta, ProfileKeyParam } from '../http/envelope-schemas.ts'
import { analytics as analyticsUseCases } from '../core/use-cases.ts'

const KeyParams = Type.Object({ profileKey: ProfileKeyParam })

const PERIOD_RULES =
  "Days are counted in the owner's time zone (GET /me analytics.timezone). Choose a `period` preset, or `dateFrom`/`dateTo` (inclusive; at most 366 days; a start after the end is 422); the default is last28. " +
  '`previous` covers the period of equal length just before (turn it off with compare=false). `include=timeline` adds one point per `bucket` (day, week or month). ' +
  'Only people count: crawlers, link previews and prefetches are left out. Unique counts are approximate (HyperLogLog, ~0.8 %). Data is kept 365 days; answers are cached for meta.cacheSeconds.'

export default routes('Analytics', 'Views, visitors and clicks of your pages, counted without cookies or stored IP addresses.', '/v1', [
  route({
    method: 'GET',
    url: '/analytics',
    operationId: 'getAccountAnalytics',
    summary: 'Views, visitors and clicks of every page of the account',
    description: `One row per page (views, uniqueVisitors, clicks, ctr) plus account totals and the previous period's totals. ${PERIOD_RULES} Example: GET /analytics?period=last7&include=timeline.`,
    scope: 'profile:read',
    limit: 'analytics',
    query: AnalyticsQuery,
    reply: { 200: DataWithMeta(AccountAnalytics, AnalyticsMeta) },
    errors: [422, 429],
    handler: async ({ ctx, principal, query, reply }) => {
      const { data, meta } = await analyticsUseCases.forAccount(ctx, principal, query)
      reply.header('cache-control', `private, max-age=${CACHE_SECONDS}`)
      return withMeta(data, meta)
    },
  }),
  route({
    method: 'GET',
    url: '/profiles/:profileKey/analytics',
    operationId: 'getProfileAnalytics',
    summary: 'Views, clicks per block and per social link, and findings for one page',
    description: `Totals (views, uniqueVisitors, clicks, ctr), the same for the previous period, clicks and unique clicks of every block now on the page (deleted blocks lose theirs), clicks of every social link, and \`insights\`: short findings such as views up or down, the top block, blocks never clicked, a change in click-through rate and the best day. ${PERIOD_RULES} Example: GET /profiles/jane.doe/analytics?period=last28&compare=true.`,
    scope: 'profile:read',
    limit: 'analytics',
    params: KeyParams,
    query: AnalyticsQuery,
    reply: { 200: DataWithMeta(PageAnalytics, AnalyticsMeta) },
    errors: [404, 422, 429],
    handler: async ({ ctx, principal, params, query, reply }) => {
      const { data, meta } = await analyticsUseCases.forPage(ctx, principal, params.profileKey, query)
      reply.header('cache-control', `private, max-age=${CACHE_SECONDS}`)
      return withMeta(data, meta)
    },
  }),
])
