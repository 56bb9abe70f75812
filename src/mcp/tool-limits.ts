import { AppError } from '../core/errors.ts'
import type { ToolContext } from './define-tool.ts'

const MINUTE = 60_000

/**
 * The REST API's extra per-token groups (music lookups, analytics) for the tools that do the same
 * work; the global per-second and per-minute limits are counted per HTTP request to /mcp.
 */
export async function takeToolLimit({ ctx, principal }: ToolContext, group: 'music' | 'analytics'): Promise<void> {
  const rl = ctx.config.rateLimit
  const limit = group === 'music' ? rl.musicPerMinute : rl.analyticsPerMinute
  if (limit <= 0) return
  const verdict = await ctx.rateLimiter.take(`t${principal.tokenId}`, [{ name: group, limit, windowMs: MINUTE }])
  if (verdict.allowed) return
  const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))
  throw new AppError('rate_limited', {
    message: `Rate limit of ${limit} ${group} requests per minute exceeded; retry in ${seconds} s.`,
    headers: { 'Retry-After': String(seconds) },
  })
}
