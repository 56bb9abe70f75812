import { join } from 'node:path'
import type { AppContext } from '../context.ts'
import { limits } from '../kernel/limits.ts'
import { diskStorage } from './disk-storage.ts'
import { type Connector, directConnector, type Resolver, systemResolver } from './guarded-fetch.ts'
import { s3Storage } from './s3-storage.ts'
import { withSquareCrops } from './square-crops.ts'
import type { Storage } from './storage.ts'

/** What the media code needs beyond the context: its store, its way out to the network, a clock. */
export interface Media {
  storage: Storage
  /** How upload-by-URL resolves names and opens sockets; tests pass ones that only reach loopback. */
  resolve: Resolver
  connect: Connector
  now: () => number
  urlTimeoutMs: number
}

/** The media services of one context (one process, or one test app): AppContext.media makes them on first use. */
export function createMedia(ctx: AppContext): Media {
  const storage = withSquareCrops(ctx.config.s3 ? s3Storage(ctx.config.s3) : diskStorage(join(ctx.config.dataDir, 'files')))
  ctx.onClose(() => storage.close())
  return { storage, resolve: systemResolver, connect: directConnector, now: Date.now, urlTimeoutMs: limits.uploadFromUrlTimeoutSeconds * 1000 }
}

/** Replaces parts of a context's media services (tests: network, clock, timeouts). */
export function configureMedia(ctx: AppContext, overrides: Partial<Omit<Media, 'storage'>>): Media {
  return Object.assign(ctx.media, overrides)
}

// The context holds this as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    /** Uploaded files' storage, and how upload-by-URL reaches the network (tests replace it). */
    readonly media: Media
  }
}
