import { Type } from '@sinclair/typebox'
import { AccountAnalytics, AnalyticsMeta, AnalyticsQuery } from '../../analytics/analytics-schemas.ts'
import { analytics } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'

export default defineTool({
  name: 'get_analytics',
  title: 'Views and clicks of all my pages',
  description:
    'Views, unique visitors, clicks and click-through rate of every page of the account, with totals and the previous period ' +
    'for comparison, and where visitors came from across the account (sources, countries, devices, browsers: top 10 each, the rest as "other"). Days are in the owner\'s time zone; period is a preset (today, yesterday, last7, last28, last90, thisMonth, ' +
    'lastMonth) or dateFrom/dateTo; include "timeline" for one point per bucket. Call get_me first for the time zone; for one page in depth use get_profile_analytics instead. ' +
    'Example: get_analytics {"period": "last7"} → {"analytics": {"totals": {"views": 120, …}, "profiles": […]}, "meta": {…}}.',
  scope: 'profile:read',
  inputSchema: AnalyticsQuery,
  outputSchema: Type.Object({ analytics: AccountAnalytics, meta: AnalyticsMeta }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  limit: 'analytics',
  handler: async (query, { ctx, principal }) => {
    const { data, meta } = await analytics.forAccount(ctx, principal, query)
    const t = data.totals
    return { structured: { analytics: data, meta }, text: `${data.period.from} to ${data.period.to}: ${t.views} views, ${t.uniqueVisitors} visitors, ${t.clicks} clicks.` }
  },
})
