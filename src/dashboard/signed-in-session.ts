import type { FastifyRequest } from 'fastify'
import { LAST_SEEN_STEP_MS, sessionFactsOf } from '../auth/session-facts.ts'

/**
 * Signs this browser in under a fresh session id (an id planted before, session fixation, is
 * worth nothing after), noting what its owner will see of it in the list of sessions. After a
 * change that ends the other sessions (`continuing`), the browser keeps when it signed in.
 */
export async function startSignedInSession(req: FastifyRequest, userId: number, continuing = false): Promise<void> {
  const before = continuing ? req.session.seen : undefined
  await req.session.regenerate()
  req.session.userId = userId
  const fresh = sessionFactsOf(req.headers['user-agent'], req.ip)
  req.session.seen = before ? { ...fresh, signedInAt: before.signedInAt } : fresh
}

/** Moves "last seen" of a signed-in session forward, at most every few minutes (a write each time). */
export function touchSession(req: FastifyRequest): void {
  const session = req.session
  if (typeof session?.userId !== 'number') return
  const now = Date.now()
  const seen = session.seen
  if (!seen) session.seen = sessionFactsOf(req.headers['user-agent'], req.ip, now)
  else if (now - seen.lastSeenAt >= LAST_SEEN_STEP_MS) session.seen = { ...seen, lastSeenAt: now }
}
