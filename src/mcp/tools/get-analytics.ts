import { Type } from '@sinclair/typebox'
import { AccountAnalytics, AnalyticsMeta, AnalyticsQuery } from '../../analytics/analytics-schemas.ts'
import { analytics } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'

export default defineTool({
  name: 'get_analytics',
  title: 'Views and clicks of all my pages',
  description: "Views, visitors, clicks and sources of every page of the account for a period. Call get_profile_analytics instead for one page's blocks.",
  scope: 'profile:read',
  inputSchema: AnalyticsQuery,
  outputSchema: Type.Object({ analytics: AccountAnalytics, meta: AnalyticsMeta }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  limit: 'analytics',
  handler: async (query, { ctx, principal }) => {
    const { data, meta } = await analytics.forAccount(ctx, principal, query)
    const t = data.totals
    return {
      structured: { analytics: data, meta },
      text: `${data.period.from} to ${data.period.to}: ${t.views} views, ${t.uniqueVisitors} visitors, ${t.clicks} clicks.`,
    }
  },
})
