import { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Config } from './config.ts'
import type { DomainResolver } from './domains/dns-check.ts'
import type { AppMetrics } from './observability/metrics.ts'
import type { Database } from './store/schema.ts'

/** Events other modules subscribe to; emitted after the write's transaction committed. */
export interface AppEvents {
  /** A profile's page, settings or slots changed (logins holds old and new logins). */
  'profile-changed': [{ profileId: number; logins: string[] }]
}

/**
 * What every handler, service and command may use, all of it: built once per process (or per
 * test app) by createContext, with no state kept beside it. Subsystems that start timers or
 * clients (media storage, the analytics intake, metrics) are made on first use.
 *
 * The members below are what everything stands on. The subsystems that also take a context add
 * their own member beside their definition (`declare module '…/context.ts'`), so this file
 * imports nothing from the folders that import it: the analytics intake and answer cache
 * (analytics/), sessions, mail, verified tokens and single sign-on providers' metadata (auth/),
 * the idempotency store, slot copies, owned pages and the rate limiter (infra/), media (media/)
 * and the webhook sender (webhooks/).
 */
export interface AppContext {
  config: Config
  db: Kysely<Database>
  redis: Redis | undefined
  log: Logger
  events: EventEmitter<AppEvents>
  /** Secret bytes for signing (upload URLs) and keyed hashing (visitor keys). */
  secret: Buffer
  /** The Prometheus metrics, business counters included. */
  readonly metrics: AppMetrics
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
