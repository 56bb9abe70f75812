import { Type } from '@sinclair/typebox'
import { AnalyticsMeta, AnalyticsQuery, PageAnalytics } from '../../analytics/analytics-schemas.ts'
import { analytics } from '../../core/use-cases.ts'
import { defineTool } from '../define-tool.ts'
import { fieldsOf, ProfileKey } from '../tool-schemas.ts'

export default defineTool({
  name: 'get_profile_analytics',
  title: 'Views, clicks per block and findings for one page',
  description: "One page's views, clicks per slot and social link, sources and insights for a period. Call list_profiles first for the profileKey.",
  scope: 'profile:read',
  inputSchema: Type.Object({ profileKey: ProfileKey, ...fieldsOf(AnalyticsQuery) }, { additionalProperties: false }),
  outputSchema: Type.Object({ analytics: PageAnalytics, meta: AnalyticsMeta }, { additionalProperties: false }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  limit: 'analytics',
  handler: async ({ profileKey, ...query }, { ctx, principal }) => {
    const { data, meta } = await analytics.forPage(ctx, principal, profileKey, query)
    const t = data.totals
    const insights = data.insights.map((i) => i.message).join(' ')
    const top = data.sources[0] ? ` Top source: ${data.sources[0].source} (${data.sources[0].views} views).` : ''
    return {
      structured: { analytics: data, meta },
      text: `${data.login}, ${data.period.from} to ${data.period.to}: ${t.views} views, ${t.clicks} clicks.${top} ${insights}`.trim(),
    }
  },
})
