import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../context.ts'
import { sessionUser } from '../auth/dashboard-sessions.ts'
import type { User } from '../core/use-cases.ts'

// Where a user lands, and how a `next` is made safe, are shared with every page that sends one back.
export { HOME, safeNext } from '../http/next-url.ts'
import { HOME, safeNext } from '../http/next-url.ts'

/** A link to the other form (sign in ↔ create an account) that keeps where the person was going. */
export const withNext = (path: string, next: string) => (next === HOME ? path : `${path}?next=${encodeURIComponent(next)}`)

/** The signed-in user of this request, read fresh from the store (a deleted account is signed out). */
export async function signedInUser(ctx: AppContext, req: FastifyRequest): Promise<User | undefined> {
  const id = req.session?.userId
  if (typeof id !== 'number') return undefined
  return sessionUser(ctx.db, id)
}

/**
 * `/login?next=<this request's path>`: where a signed-out visitor is sent. Only a GET comes
 * back to where it was; a form sent after the session ended leads home (its path may have no
 * page to show).
 */
export const loginUrlFor = (req: FastifyRequest) =>
  `/login?next=${encodeURIComponent(req.method === 'GET' || req.method === 'HEAD' ? safeNext(req.url) : HOME)}`

/**
 * The signed-in user, or undefined after answering with a redirect to /login?next=<this path>
 * (303, so a form post comes back as a GET). Callers return the reply when it is undefined:
 * `const user = await requireUser(ctx, req, reply); if (!user) return reply`.
 */
export async function requireUser(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<User | undefined> {
  const user = await signedInUser(ctx, req)
  if (!user) {
    reply.code(303).header('location', loginUrlFor(req)).header('cache-control', 'no-store').send()
    return undefined
  }
  return user
}
