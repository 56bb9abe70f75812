import type { Principal } from '../auth/principal.ts'
import type { AnalyticsQuery, AccountAnalytics, PageAnalytics } from '../analytics/analytics-schemas.ts'
import { type Answer, analyticsService } from '../analytics/analytics-service.ts'
import type { AppContext } from '../context.ts'
import { type ProfileKey, readAccount, readProfile } from './unit-of-work.ts'

/** spec, GET /analytics: every page of the account, totals and the previous period. */
async function forAccount(ctx: AppContext, principal: Principal, query: AnalyticsQuery): Promise<Answer<AccountAnalytics>> {
  return readAccount(ctx, principal, (db) => analyticsService.forAccount(ctx, db, principal.user, query))
}

/** spec, GET /profiles/{profileKey}/analytics: one page, per block and social link, with insights. */
async function forPage(ctx: AppContext, principal: Principal, profileKey: ProfileKey, query: AnalyticsQuery): Promise<Answer<PageAnalytics>> {
  return readProfile(ctx, principal, profileKey, (db, profile) => analyticsService.forPage(ctx, db, principal.user, profile, query))
}

export const analyticsUseCases = Object.freeze({ forAccount, forPage })
