/** How long an analytics answer is reused (meta.cacheSeconds). */
export const CACHE_SECONDS = 60
const MAX_ENTRIES = 2000

interface Entry {
  expiresAt: number
  profileIds: number[]
  value: unknown
}

/**
 * Analytics answers kept in memory for CACHE_SECONDS, keyed by user, page and query. The intake
 * forgets a page's answers when it writes that page's events, so within one instance a fresh
 * visit shows at once; other instances catch up within cacheSeconds, as meta announces.
 */
export interface AnswerCache {
  get<T>(key: string): T | undefined
  set(key: string, profileIds: number[], value: unknown): void
  forget(profileIds: Iterable<number>): void
}

export function createAnswerCache(): AnswerCache {
  const entries = new Map<string, Entry>()
  return {
    get<T>(key: string) {
      const e = entries.get(key)
      if (!e) return undefined
      if (e.expiresAt <= Date.now()) {
        entries.delete(key)
        return undefined
      }
      return e.value as T
    },
    set(key, profileIds, value) {
      // Map keeps insertion order, so the first key is the oldest entry.
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!)
      entries.set(key, { expiresAt: Date.now() + CACHE_SECONDS * 1000, profileIds, value })
    },
    forget(profileIds) {
      const ids = new Set(profileIds)
      for (const [key, e] of entries) if (e.profileIds.some((id) => ids.has(id))) entries.delete(key)
    },
  }
}

// The context holds this as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    /** Analytics answers reused for a minute (the intake forgets a page's when it writes its events). */
    readonly answerCache: AnswerCache
  }
}
