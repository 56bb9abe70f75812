import type { FastifyReply } from 'fastify'
import type { AppContext } from '../context.ts'
import { AppError } from './errors.ts'
import type { RouteRow } from './routes.ts'

interface Window {
  name: string
  limit: number
  ms: number
}

/** The windows in force for a row: 0 in configuration turns a window off. */
function windowsFor(ctx: AppContext, row: RouteRow): Window[] {
  const rl = ctx.config.rateLimit
  const all: Window[] = [
    { name: 's', limit: rl.perSecond, ms: 1000 },
    { name: 'm', limit: rl.perMinute, ms: 60_000 },
  ]
  if (row.limit === 'analytics') all.push({ name: 'analytics', limit: rl.analyticsPerMinute, ms: 60_000 })
  if (row.limit === 'music') all.push({ name: 'music', limit: rl.musicPerMinute, ms: 60_000 })
  return all.filter((w) => w.limit > 0)
}

/**
 * Counts the request in every window of its token and sets the RateLimit-* headers of the
 * tightest one (IETF draft-ietf-httpapi-ratelimit-headers); over any limit it is a 429.
 */
export async function applyRateLimit(ctx: AppContext, reply: FastifyReply, row: RouteRow, tokenId: number): Promise<void> {
  const windows = windowsFor(ctx, row)
  if (!windows.length) return
  const hits = await Promise.all(windows.map((w) => ctx.rateLimiter.hit(`t${tokenId}:${w.name}`, w.ms)))
  let tightest = 0
  let exceeded: number | undefined
  windows.forEach((w, i) => {
    const remaining = w.limit - hits[i].count
    if (remaining < windows[tightest].limit - hits[tightest].count) tightest = i
    if (remaining < 0 && (exceeded === undefined || hits[i].resetMs > hits[exceeded].resetMs)) exceeded = i
  })
  const shown = exceeded ?? tightest
  const resetSeconds = Math.max(1, Math.ceil(hits[shown].resetMs / 1000))
  reply.header('RateLimit-Limit', windows[shown].limit)
  reply.header('RateLimit-Remaining', Math.max(0, windows[shown].limit - hits[shown].count))
  reply.header('RateLimit-Reset', resetSeconds)
  if (exceeded !== undefined) {
    const w = windows[exceeded]
    const per = w.ms === 1000 ? 'second' : 'minute'
    throw new AppError('rate_limited', {
      message: `Rate limit of ${w.limit} ${w.name === 'analytics' || w.name === 'music' ? `${w.name} ` : ''}requests per ${per} exceeded; retry in ${resetSeconds} s. Batch endpoints save requests.`,
      headers: { 'Retry-After': String(resetSeconds) },
    })
  }
}
