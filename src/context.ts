import { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { AnswerCache } from './analytics/answer-cache.ts'
import type { AnalyticsIntake } from './analytics/intake.ts'
import type { DashboardSessionStore } from './auth/dashboard-sessions.ts'
import type { Mail } from './auth/mailer.ts'
import type { VerifiedTokens } from './auth/verified-tokens.ts'
import type { Config } from './config.ts'
import type { DomainResolver } from './domains/dns-check.ts'
import type { IdempotencyStore } from './infra/idempotency-store.ts'
import type { PresentedSlotsCache } from './infra/presented-slots.ts'
import type { OwnedProfiles } from './infra/owned-profiles.ts'
import type { RateLimiter } from './infra/rate-limiter.ts'
import type { Media } from './media/media.ts'
import type { AppMetrics } from './observability/metrics.ts'
import type { Database } from './store/schema.ts'
import type { WebhookSender } from './webhooks/sender.ts'

/** Events other modules subscribe to; emitted after the write's transaction committed. */
export interface AppEvents {
  /** A profile's page, settings or slots changed (logins holds old and new logins). */
  'profile-changed': [{ profileId: number; logins: string[] }]
}

/**
 * What every handler, service and command may use, all of it: built once per process (or per
 * test app) by createContext, with no state kept beside it. Subsystems that start timers or
 * clients (media storage, the analytics intake, metrics) are made on first use.
 */
export interface AppContext {
  config: Config
  db: Kysely<Database>
  redis: Redis | undefined
  rateLimiter: RateLimiter
  idempotency: IdempotencyStore
  log: Logger
  /** Signed-in browser sessions (the dashboard's), which a password change ends. */
  sessions: DashboardSessionStore
  events: EventEmitter<AppEvents>
  /** Secret bytes for signing (upload URLs) and keyed hashing (visitor keys). */
  secret: Buffer
  /** Uploaded files' storage, and how upload-by-URL reaches the network (tests replace it). */
  readonly media: Media
  /** Page views and clicks, buffered and written in batches; flushed on close. */
  readonly intake: AnalyticsIntake
  /** Analytics answers reused for a minute (the intake forgets a page's when it writes its events). */
  readonly answerCache: AnswerCache
  /** Pages' slots as presented at their current slots revision (infra/presented-slots.ts). */
  readonly slotCopies: PresentedSlotsCache
  /** The principals' pages as read at their account revision (infra/owned-profiles.ts). */
  readonly ownedProfiles: OwnedProfiles
  /** Verified bearer tokens kept in process, exact across instances (auth/verified-tokens.ts). */
  readonly verifiedTokens: VerifiedTokens
  /** Sends plain-text mail through SMTP_URL; undefined when the service has none. */
  readonly mailer: ((mail: Mail) => Promise<void>) | undefined
  /** The Prometheus metrics, business counters included. */
  readonly metrics: AppMetrics
  /** Sends the webhook outbox (webhooks/sender.ts); serving processes start it. */
  readonly webhooks: WebhookSender
  /** Answers the DNS questions of custom-domain checks (DOMAINS_DNS_SERVERS; tests point it at 127.0.0.1). */
  readonly dns: DomainResolver
  /** Background jobs scheduled on this context, by name: a tick each (jobs/periodic-job.ts). */
  readonly jobs: Map<string, () => Promise<void>>
  /** Closers run on shutdown, last registered first. */
  onClose: (fn: () => Promise<void> | void) => void
  /** What closeContext runs, in the order registered. */
  readonly closers: ReadonlyArray<() => Promise<void> | void>
}

/** Defines `key` on `target` as made by `make` on first read, then kept. */
export function madeOnFirstUse<T extends object, K extends keyof T>(target: T, key: K, make: () => T[K]): void {
  let value: T[K] | undefined
  Object.defineProperty(target, key, { enumerable: true, get: () => (value ??= make()) })
}

export const newEventBus = () => new EventEmitter<AppEvents>()

/**
 * Emits 'profile-changed' and waits for what its listeners start: the page cache tells the
 * other instances through Redis, and a write answers only once they have been told, so the
 * caller's next read on any instance finds the change.
 */
export async function announceProfileChange(events: EventEmitter<AppEvents>, change: AppEvents['profile-changed'][0]): Promise<void> {
  const listeners = events.listeners('profile-changed') as Array<(c: typeof change) => unknown>
  await Promise.all(listeners.map((fn) => fn(change)))
}
