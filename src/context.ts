import { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { DashboardSessionStore } from './auth/sessions.ts'
import type { Config } from './config.ts'
import type { IdempotencyStore } from './core/idempotency-store.ts'
import type { RateLimiter } from './core/rate-limiter.ts'
import type { Database } from './store/schema.ts'

/** Events other modules subscribe to; emitted after the write's transaction committed. */
export interface AppEvents {
  /** A profile's page, settings or slots changed (logins holds old and new logins). */
  'profile-changed': [{ profileId: number; logins: string[] }]
}

/** What every handler, service and command may use; built once per process (or per test app). */
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
  /** Closers run on shutdown, last registered first. */
  onClose: (fn: () => Promise<void> | void) => void
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
