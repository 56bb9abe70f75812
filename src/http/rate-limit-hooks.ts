import type { FastifyReply, FastifyRequest } from 'fastify'
import ipaddr from 'ipaddr.js'
import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { AppError } from '../kernel/errors.ts'
import { parseAddress } from '../kernel/ip-address.ts'
import type { RateRule, RateVerdict } from '../infra/rate-limiter.ts'
import { describeRule, takeProtocolLimit, takeTokenLimit, waitSeconds } from '../infra/token-limits.ts'
import type { RouteRow } from './routes.ts'

const MINUTE = 60_000

/**
 * Per-address quotas where a client without a token can cost us something. `perMinute` scales
 * with RATE_LIMIT_ADDRESS_PER_MINUTE (the `requests` row is that value); 0 there turns them all
 * off. (Dashboard sign-in and registration have their own rules: src/dashboard/sign-in-limits.ts.)
 */
export const addressRules = Object.freeze({
  /** API requests without a valid token, and public API reads. */
  requests: { name: 'ip', windowMs: MINUTE, share: 1 },
  /**
   * /mcp requests with no token at all: the first step of every client's OAuth discovery,
   * answered without a database read, and sent by every agent behind one egress address (an
   * office, a hosted agent) at once, so far more of them fit than of requests with a bad token.
   */
  mcpChallenges: { name: 'ip-mcp', windowMs: MINUTE, share: 10 },
  /** Click redirects of public pages (a person clicks far less than a script). */
  clicks: { name: 'ip-click', windowMs: MINUTE, share: 1 },
  /** Form submissions to /-/forms/<slot>. */
  forms: { name: 'ip-form', windowMs: MINUTE, fixed: 10 },
  /** OAuth dynamic client registration (RFC 7591). */
  oauthRegistration: { name: 'ip-oauth-register', windowMs: 10 * MINUTE, fixed: 10 },
})
export type AddressRuleName = keyof typeof addressRules

/** The rule for `name` as configured, or undefined when per-address limits are off. */
export function addressRule(ctx: AppContext, name: AddressRuleName): RateRule | undefined {
  const base = ctx.config.rateLimit.addressPerMinute
  if (base <= 0) return undefined
  const row = addressRules[name]
  const limit = 'fixed' in row ? row.fixed : base * row.share
  return { name: row.name, limit, windowMs: row.windowMs }
}

/**
 * Counts one request from the client's address under `name`. HTML routes (forms, sign-in)
 * read the verdict and answer with their own page; JSON routes use `enforceAddressLimit`.
 * Always allowed when per-address limits are off.
 */
export async function takeAddressLimit(ctx: AppContext, req: FastifyRequest, name: AddressRuleName): Promise<RateVerdict | undefined> {
  const rule = addressRule(ctx, name)
  if (!rule) return undefined
  return ctx.rateLimiter.take(`a${addressKey(req.ip)}`, [rule])
}

/**
 * Who an address is, for counting: an IPv4 address itself (IPv4-mapped IPv6 included); for IPv6
 * its /64, since one subscriber is usually given a whole /64 and could otherwise take a fresh
 * address, and a fresh quota, for every request.
 */
export function addressKey(ip: string): string {
  const address = parseAddress(ip.split('%')[0])
  if (!address) return ip
  if (address instanceof ipaddr.IPv4) return address.toString()
  return `${address.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`
}

/** Whole seconds a client should wait; never 0, so `Retry-After: 0` never invites a loop. */
export const retryAfterSeconds = waitSeconds

/** The RateLimit-* headers (draft-ietf-httpapi-ratelimit-headers) and, when refused, Retry-After. */
export function setRateLimitHeaders(reply: FastifyReply, verdict: RateVerdict): void {
  reply.header('RateLimit-Limit', verdict.rule.limit)
  reply.header('RateLimit-Remaining', verdict.remaining)
  reply.header('RateLimit-Reset', Math.max(1, Math.ceil(verdict.resetMs / 1000)))
  if (!verdict.allowed) reply.header('Retry-After', retryAfterSeconds(verdict))
}

function rateLimited(verdict: RateVerdict, what: string, advice = '', headers: Record<string, string> = {}): AppError {
  const seconds = retryAfterSeconds(verdict)
  return new AppError('rate_limited', {
    message: `Rate limit of ${describeRule(verdict.rule, what)} exceeded; retry in ${seconds} s.${advice}`,
    headers: { ...headers, 'Retry-After': String(seconds) },
  })
}

/**
 * A JSON route's per-address limit: headers on the answer, a 429 in the envelope past it, with
 * `headers` added (the /mcp challenge, so a client told to wait still learns where OAuth starts).
 */
export async function enforceAddressLimit(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  name: AddressRuleName,
  headers: Record<string, string> = {},
): Promise<void> {
  const verdict = await takeAddressLimit(ctx, req, name)
  if (!verdict) return
  setRateLimitHeaders(reply, verdict)
  if (!verdict.allowed) throw rateLimited(verdict, 'requests from one address', '', headers)
}

/** The per-principal limit of MCP protocol messages (core/token-limits.ts): headers, and a 429 past it. */
export async function enforceProtocolLimit(ctx: AppContext, reply: FastifyReply, principal: Principal): Promise<void> {
  const verdict = await takeProtocolLimit(ctx, principal)
  if (!verdict) return
  setRateLimitHeaders(reply, verdict)
  if (!verdict.allowed) throw rateLimited(verdict, 'MCP messages', ' Tool calls have limits of their own; connect once and reuse the lists.')
}

/**
 * Counts the request under every rule of its token (infra/token-limits.ts, shared with /mcp) and
 * sets the RateLimit-* headers of the tightest one; over any of them it is a 429 with the exact
 * wait in Retry-After.
 */
export async function applyRateLimit(ctx: AppContext, reply: FastifyReply, row: Pick<RouteRow, 'limit'>, principal: Principal): Promise<void> {
  const verdict = await takeTokenLimit(ctx, principal, row.limit)
  if (!verdict) return
  setRateLimitHeaders(reply, verdict)
  if (!verdict.allowed) throw rateLimited(verdict, 'requests', ' Batch endpoints save requests.')
}
