import type { SessionFacts } from '../auth/session-facts.ts'
import { requireOwnerInPerson, type Principal } from '../auth/principal.ts'
import { sha256 } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { notFound } from '../kernel/errors.ts'

/**
 * A signed-in browser as its owner sees it. `handle` names it in a form without giving away
 * anything that opens it: a digest of the stored digest of its id.
 */
export interface SessionView extends Partial<SessionFacts> {
  handle: string
  current: boolean
}

const handleOf = (idHash: string) => sha256(`session handle:${idHash}`).slice(0, 32)

/** The account's live browser sessions, this one first, then the most recently seen. */
async function list(ctx: AppContext, principal: Principal, input: { currentSessionId?: string }): Promise<SessionView[]> {
  requireOwnerInPerson(principal)
  const current = input.currentSessionId === undefined ? undefined : sha256(input.currentSessionId)
  const views = (await ctx.sessions.listFor(principal.user.id)).map(({ idHash, session }) => ({
    ...session.seen,
    handle: handleOf(idHash),
    current: idHash === current,
  }))
  return views.sort((a, b) => Number(b.current) - Number(a.current) || (b.lastSeenAt ?? 0) - (a.lastSeenAt ?? 0))
}

/** Signs out one browser of the account (404 when the handle names none of its live sessions). */
async function end(ctx: AppContext, principal: Principal, input: { handle: string }): Promise<void> {
  requireOwnerInPerson(principal)
  const found = (await ctx.sessions.listFor(principal.user.id)).find((s) => handleOf(s.idHash) === input.handle)
  if (!found || !(await ctx.sessions.endOne(principal.user.id, found.idHash))) throw notFound('session', 'This browser is already signed out.')
}

/** Signs out every browser of the account but `keepSessionId`; answers how many. */
async function endOthers(ctx: AppContext, principal: Principal, input: { keepSessionId: string }): Promise<number> {
  requireOwnerInPerson(principal)
  return ctx.sessions.endAllFor(principal.user.id, input.keepSessionId)
}

export const sessionUseCases = Object.freeze({ list, end, endOthers })
