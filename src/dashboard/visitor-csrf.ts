import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../context.ts'

/**
 * CSRF for visitors (the sign-in and registration forms) without a stored session: a signed
 * double submit (OWASP). The cookie holds a random nonce and when it was issued; the form holds an
 * HMAC of that cookie under the service secret. A POST passes when its field is the HMAC of the
 * cookie it came with and the cookie is under two hours old. Another site can neither read the
 * cookie nor forge the HMAC, and anonymous traffic stores nothing (each visit used to save a
 * session row for two hours, unlimited per address).
 */
export const VISITOR_COOKIE = 'slotline_visitor'
const TTL_MS = 2 * 3600_000

const keyOf = (ctx: AppContext) => createHmac('sha256', ctx.secret).update('dashboard visitor csrf').digest()
const sign = (ctx: AppContext, cookie: string) => createHmac('sha256', keyOf(ctx)).update(cookie).digest('base64url')

function cookieOf(req: FastifyRequest, name: string): string | undefined {
  const value = req.cookies?.[name]
  return typeof value === 'string' && /^\d{13}\.[A-Za-z0-9_-]{22}$/.test(value) ? value : undefined
}

const fresh = (cookie: string) => {
  const issued = Number(cookie.slice(0, 13))
  return issued <= Date.now() + 60_000 && Date.now() - issued < TTL_MS
}

/** The token for a visitor's form; sets the cookie it is bound to when the request has none (or an old one). */
export function visitorCsrfToken(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, cookieName: string): string {
  let cookie = cookieOf(req, cookieName)
  if (!cookie || !fresh(cookie)) {
    cookie = `${Date.now()}.${randomBytes(16).toString('base64url')}`
    reply.setCookie(cookieName, cookie, { path: '/', httpOnly: true, sameSite: 'lax', maxAge: TTL_MS / 1000 })
  }
  return sign(ctx, cookie)
}

/** Whether a visitor's POST carries the token of the cookie it came with. */
export function visitorCsrfValid(ctx: AppContext, req: FastifyRequest, cookieName: string): boolean {
  const cookie = cookieOf(req, cookieName)
  const given = (req.body as Record<string, unknown> | undefined)?._csrf
  if (!cookie || !fresh(cookie) || typeof given !== 'string') return false
  const expected = Buffer.from(sign(ctx, cookie))
  const actual = Buffer.from(given)
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}
