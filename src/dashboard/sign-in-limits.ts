import { sha256 } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { AppError } from '../kernel/errors.ts'
import { addressKey } from '../http/rate-limit-hooks.ts'

/**
 * Attempts allowed per sliding window. A burst past them waits (429 with Retry-After, and a
 * refused attempt is not counted); nothing is ever locked. The e-mail is counted per address,
 * so someone hammering a victim's e-mail from elsewhere never makes the owner wait; the
 * per-address limit slows spraying many e-mails (or one) from one place.
 */
const WINDOW_MS = 10 * 60_000

/** The limits in force: RATE_LIMIT_SIGN_IN_PER_10_MINUTES per e-mail and address, three times that per address. */
export function signInLimits(ctx: AppContext) {
  const perEmail = ctx.config.rateLimit.signInPer10Minutes
  return { perEmail, perIp: perEmail * 3, registerPerIp: perEmail }
}

async function check(ctx: AppContext, buckets: Array<{ key: string; name: string; limit: number }>): Promise<void> {
  if (ctx.config.rateLimit.signInPer10Minutes === 0) return
  const verdicts = await Promise.all(buckets.map((b) => ctx.rateLimiter.take(b.key, [{ name: b.name, limit: b.limit, windowMs: WINDOW_MS }])))
  const refused = verdicts.filter((v) => !v.allowed)
  if (!refused.length) return
  const wait = Math.max(1, ...refused.map((v) => Math.ceil(v.retryAfterMs / 1000)))
  throw new AppError('rate_limited', {
    message: `Too many attempts. Wait ${wait < 90 ? `${wait} seconds` : `about ${Math.ceil(wait / 60)} minutes`} and try again; nothing is locked.`,
    headers: { 'Retry-After': String(wait) },
  })
}

// E-mails are counted by digest, so rate-limit keys (and Redis) never hold an address.
const emailKey = (email: string) => sha256(email.trim().toLowerCase()).slice(0, 32)

/** Counts a sign-in attempt for this IP, and for this e-mail from this IP; over either limit it is a 429. */
export const countSignIn = (ctx: AppContext, ip: string, email: string) =>
  check(ctx, [
    { key: `signin-ip:${addressKey(ip)}`, name: 'sign-in', limit: signInLimits(ctx).perIp },
    { key: `signin-email:${emailKey(email)}:${addressKey(ip)}`, name: 'sign-in', limit: signInLimits(ctx).perEmail },
  ])

/** Counts a registration attempt for this IP and this e-mail. */
export const countRegistration = (ctx: AppContext, ip: string, email: string) =>
  check(ctx, [
    { key: `register-ip:${addressKey(ip)}`, name: 'register', limit: signInLimits(ctx).registerPerIp },
    { key: `register-email:${emailKey(email)}`, name: 'register', limit: signInLimits(ctx).perEmail },
  ])
