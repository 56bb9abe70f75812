import type { AppContext } from '../context.ts'
import { limits } from '../kernel/limits.ts'
import type { Db } from '../store/db.ts'
import { analyticsRepository } from '../store/analytics.ts'
import type { StoredProfile } from '../store/profiles.ts'
import { profilesRepository } from '../store/profiles.ts'
import type { User } from '../store/users.ts'
import { CACHE_SECONDS } from './answer-cache.ts'
import { type ResolvedQuery, resolveQuery, retentionStart } from './period.ts'
import { accountReport, pageReport } from './report.ts'
import type { AccountAnalytics, AnalyticsMeta, AnalyticsQuery, PageAnalytics } from './analytics-schemas.ts'

export interface Answer<T> {
  data: T
  meta: AnalyticsMeta
}

async function metaFor(db: Db, profileIds: number[], q: ResolvedQuery): Promise<AnalyticsMeta> {
  const kept = retentionStart(q.today)
  const first = await analyticsRepository.firstDay(db, profileIds)
  return {
    generatedAt: new Date().toISOString(),
    cacheSeconds: CACHE_SECONDS,
    retentionDays: limits.analyticsRetentionDays,
    dataStartsAt: first === undefined ? q.today : first < kept ? kept : first,
    uniquesAreApproximate: true,
  }
}

const queryKey = (q: ResolvedQuery) => `${q.timezone} ${q.from} ${q.to} ${q.bucket} ${q.timeline} ${q.previous ? 'c' : '-'}`

/** One page's analytics in its owner's time zone, reused for CACHE_SECONDS. */
async function forPage(ctx: AppContext, db: Db, owner: User, profile: StoredProfile, query: AnalyticsQuery): Promise<Answer<PageAnalytics>> {
  const q = resolveQuery(query, owner.timezone)
  const key = `page ${owner.id} ${profile.id} ${queryKey(q)}`
  const cache = ctx.answerCache
  const hit = cache.get<Answer<PageAnalytics>>(key)
  if (hit) return hit
  const [data, meta] = await Promise.all([pageReport(db, profile, q), metaFor(db, [profile.id], q)])
  const answer = { data, meta }
  cache.set(key, [profile.id], answer)
  return answer
}

/** Every page of the owner's account, with totals, reused for CACHE_SECONDS. */
async function forAccount(ctx: AppContext, db: Db, owner: User, query: AnalyticsQuery): Promise<Answer<AccountAnalytics>> {
  const q = resolveQuery(query, owner.timezone)
  const profiles = await profilesRepository.listByUser(db, owner.id)
  const ids = profiles.map((p) => p.id)
  // The page list is part of the key: a page created or renamed within a minute shows at once.
  const key = `account ${owner.id} ${profiles.map((p) => `${p.id}:${p.login}`).join(',')} ${queryKey(q)}`
  const cache = ctx.answerCache
  const hit = cache.get<Answer<AccountAnalytics>>(key)
  if (hit) return hit
  const [data, meta] = await Promise.all([accountReport(db, owner.id, profiles, q), metaFor(db, ids, q)])
  const answer = { data, meta }
  cache.set(key, ids, answer)
  return answer
}

export const analyticsService = Object.freeze({ forPage, forAccount })
