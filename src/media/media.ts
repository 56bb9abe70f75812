import { join } from 'node:path'
import type { AppContext } from '../context.ts'
import { limits } from '../limits.ts'
import { diskStorage } from './disk-storage.ts'
import { type Connector, directConnector, type Resolver, systemResolver } from './guarded-fetch.ts'
import { s3Storage } from './s3-storage.ts'
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

const byContext = new WeakMap<AppContext, Media>()

/** The media services of one context (one process, or one test app), made on first use. */
export function mediaOf(ctx: AppContext): Media {
  let media = byContext.get(ctx)
  if (!media) {
    const storage = ctx.config.s3 ? s3Storage(ctx.config.s3) : diskStorage(join(ctx.config.dataDir, 'files'))
    ctx.onClose(() => storage.close())
    media = { storage, resolve: systemResolver, connect: directConnector, now: Date.now, urlTimeoutMs: limits.uploadFromUrlTimeoutSeconds * 1000 }
    byContext.set(ctx, media)
  }
  return media
}

/** Replaces parts of a context's media services (tests: network, clock, timeouts). */
export function configureMedia(ctx: AppContext, overrides: Partial<Omit<Media, 'storage'>>): Media {
  return Object.assign(mediaOf(ctx), overrides)
}
