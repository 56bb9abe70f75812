import { randomUUID } from 'node:crypto'
import type { AppContext } from '../context.ts'
import type { PageCache } from './page-cache.ts'

interface Change {
  origin: string
  profileId: number
  logins: string[]
}

/**
 * Keeps the page cache honest: every committed write emits 'profile-changed' in this process,
 * and with Redis the change is published so other instances drop their copies too. The
 * subscriber needs its own connection (a subscribed ioredis client accepts no other commands).
 * Channels are not key-prefixed by ioredis, so the prefix is added by hand: test suites and
 * deployments sharing one Redis stay apart.
 */
export function keepPagesFresh(ctx: AppContext, cache: PageCache): { ready: Promise<void>; close: () => Promise<void> } {
  const origin = randomUUID()
  // Answers the publication, which announceProfileChange waits for.
  const onChange = async ({ profileId, logins }: { profileId: number; logins: string[] }) => {
    cache.invalidate(profileId, logins)
    if (ctx.redis) {
      const message: Change = { origin, profileId, logins }
      await ctx.redis.publish(channel, JSON.stringify(message)).catch((err) => ctx.log.error({ err }, 'could not publish a page change'))
    }
  }
  ctx.events.on('profile-changed', onChange)
  const channel = `${ctx.redis?.options.keyPrefix ?? ''}pages:changed`

  if (!ctx.redis) {
    return { ready: Promise.resolve(), close: async () => void ctx.events.off('profile-changed', onChange) }
  }
  const subscriber = ctx.redis.duplicate()
  subscriber.on('message', (_channel: string, text: string) => {
    try {
      const change = JSON.parse(text) as Change
      if (change.origin !== origin) cache.invalidate(change.profileId, change.logins)
    } catch (err) {
      ctx.log.warn({ err }, 'ignored a malformed page change message')
    }
  })
  // While the subscription is down, another instance's change could be missed: drop
  // everything on reconnect rather than serve a page that may be stale.
  subscriber.on('ready', () => cache.clear())
  subscriber.on('error', (err) => ctx.log.warn({ err }, 'page change subscription error'))
  const ready = subscriber.subscribe(channel).then(() => undefined)
  return {
    ready,
    close: async () => {
      ctx.events.off('profile-changed', onChange)
      await subscriber.quit().catch(() => subscriber.disconnect())
    },
  }
}
