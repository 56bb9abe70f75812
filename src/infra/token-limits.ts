import type { Config } from '../config.ts'
import type { AppContext } from '../context.ts'
import type { Principal } from '../auth/principal.ts'

const SECOND = 1000
const MINUTE = 60_000

/** The extra per-token groups: work that costs more than a request (upstream lookups, analytics reads). */
export type LimitGroup = 'analytics' | 'music'

/** A per-token rule, in the rate limiter's shape. */
export interface TokenRule {
  name: string
  limit: number
  windowMs: number
}

/** What the limiter answers for one unit of work (the shape of ctx.rateLimiter.take). */
export type TokenVerdict = Awaited<ReturnType<AppContext['rateLimiter']['take']>>

/**
 * THE map of per-token limits, read by every face: the global per-second and per-minute rules,
 * plus the group's own rule. 0 in configuration turns a rule off. A REST request and an MCP tool
 * call are each one unit of work under the same counters, so switching faces gains nothing.
 */
export function tokenRules(rl: Config['rateLimit'], group?: LimitGroup): TokenRule[] {
  const all: TokenRule[] = [
    { name: 's', limit: rl.perSecond, windowMs: SECOND },
    { name: 'm', limit: rl.perMinute, windowMs: MINUTE },
  ]
  if (group === 'analytics') all.push({ name: 'analytics', limit: rl.analyticsPerMinute, windowMs: MINUTE })
  if (group === 'music') all.push({ name: 'music', limit: rl.musicPerMinute, windowMs: MINUTE })
  return all.filter((r) => r.limit > 0)
}

/**
 * Whose counters a unit of work goes on: a personal token's own; for OAuth, the account and the
 * client together, so that a refreshed token, a new authorization of the same app or many
 * sessions at once all draw on one budget rather than a fresh one each.
 */
export function limitKey(principal: Pick<Principal, 'tokenId' | 'clientId' | 'user'>): string {
  return principal.clientId === undefined ? `t${principal.tokenId}` : `c${principal.user.id}:${principal.clientId}`
}

/** Counts one unit of work for the principal (limitKey); undefined when every rule is off. */
export async function takeTokenLimit(
  ctx: AppContext,
  principal: Pick<Principal, 'tokenId' | 'clientId' | 'user'>,
  group?: LimitGroup,
): Promise<TokenVerdict | undefined> {
  const rules = tokenRules(ctx.config.rateLimit, group)
  if (!rules.length) return undefined
  return ctx.rateLimiter.take(limitKey(principal), rules)
}

/**
 * The rules for MCP protocol messages (initialize, ping, the list methods, notifications): far
 * cheaper than a tool call and sent in bursts when a host connects, so a multiple of the
 * per-token rules, on the same principal's counters (limitKey) but their own names.
 */
export function protocolRules(rl: Config['rateLimit']): TokenRule[] {
  // No per-second rule: a host's connect sends its lists all at once, and so do test suites.
  return rl.perMinute > 0 ? [{ name: 'mcp-m', limit: rl.perMinute * 5, windowMs: MINUTE }] : []
}

/** Counts one MCP protocol message for the principal; undefined when its rules are off. */
export async function takeProtocolLimit(ctx: AppContext, principal: Pick<Principal, 'tokenId' | 'clientId' | 'user'>): Promise<TokenVerdict | undefined> {
  const rules = protocolRules(ctx.config.rateLimit)
  if (!rules.length) return undefined
  return ctx.rateLimiter.take(limitKey(principal), rules)
}

/** Whole seconds to wait; never 0, so a client told to wait 0 s never loops. */
export const waitSeconds = (verdict: Pick<TokenVerdict, 'retryAfterMs'>) => Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))

/** "60 requests per minute" for a refusing verdict, with `unit` for what was counted. */
export function describeRule(rule: TokenRule, unit: string): string {
  const per = rule.windowMs === SECOND ? 'second' : rule.windowMs === MINUTE ? 'minute' : `${rule.windowMs / MINUTE} minutes`
  const what = rule.name === 'analytics' || rule.name === 'music' ? `${rule.name} ${unit}` : unit
  return `${rule.limit} ${what} per ${per}`
}
