import { limits } from '../kernel/limits.ts'

/**
 * spec, Profile settings: 28 reserved logins. 25 are listed by the spec; the other three
 * are ours (`mcp`, `oauth`, `static`), which are first path segments we serve.
 */
export const RESERVED_LOGINS: readonly string[] = Object.freeze([
  'adm',
  'agreements',
  'api',
  'auth',
  'email',
  'event',
  'events',
  'forgot-password',
  'login',
  'logout',
  'my-links',
  'my-orders',
  'order',
  'profile',
  'qr',
  'register',
  'reset-password',
  'rsvp',
  'settings',
  'shop',
  'sitemap',
  'terms',
  'validate',
  'verify-email',
  'webhook',
  'mcp',
  'oauth',
  'static',
])

const reserved = new Set(RESERVED_LOGINS)
const pattern = new RegExp(limits.login.pattern)

export type LoginProblem = 'invalid' | 'reserved'

/** The rules a login must pass before uniqueness: length, pattern, reserved words. */
export function loginProblem(login: string): { reason: LoginProblem; message: string } | null {
  const { minLength, maxLength } = limits.login
  if (login.length < minLength || login.length > maxLength) {
    return { reason: 'invalid', message: `A login is ${minLength} to ${maxLength} characters long.` }
  }
  if (!pattern.test(login)) {
    return { reason: 'invalid', message: 'A login may contain only letters, digits, dots and underscores.' }
  }
  if (reserved.has(login.toLowerCase())) {
    return { reason: 'reserved', message: `"${login}" is reserved and cannot be used as a login.` }
  }
  return null
}

/**
 * spec, Conventions: a digits-only {profileKey} is always an id. Such a login is allowed by the
 * pattern and serves its public page at /<digits>, but the API reaches that page by its id.
 */
export const isDigitsOnly = (login: string) => /^\d+$/.test(login)
