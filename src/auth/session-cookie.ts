/** The dashboard's session cookie (set by @fastify/session in dashboard/scope.ts). */
export const SESSION_COOKIE = 'slotline_session'

// Over https the cookie is `__Host-` prefixed (dashboard/scope.ts).
const CARRIES_SESSION = new RegExp(`(?:^|;\\s*)(?:__Host-)?${SESSION_COOKIE}=[^;\\s]`)

/**
 * A request carrying the dashboard's session cookie comes from someone who uses the
 * dashboard in this browser: the page's owner checking it, most of the time. Their visits and
 * clicks are not counted. Decided from the header alone, with no session lookup, so the public
 * page's fast path stays as fast. Visitors who only opened the sign-in form have no session
 * (their CSRF token is stateless), so they are counted (README, "What is counted").
 */
export function carriesSessionCookie(cookie: string | string[] | undefined): boolean {
  if (!cookie) return false
  return CARRIES_SESSION.test(Array.isArray(cookie) ? cookie.join('; ') : cookie)
}
