import type { DomainChanges, DomainState } from '../store/custom-domains.ts'
import type { CheckOutcome } from './dns-check.ts'

/**
 * The next state of a live domain after a check at `now`: pending becomes active once its
 * records are right; an active one whose records went wrong is failing, from then on; a failing
 * one is active again when they are right, and removed (released) once it has failed for the
 * whole grace. An unanswered check changes nothing but the clock of a failing domain.
 */
export function afterCheck(
  current: { state: DomainState; failingSince: string | null; verifiedAt: string | null },
  outcome: CheckOutcome,
  now: Date,
  graceMs: number,
): DomainChanges {
  const at = now.toISOString()
  const base = { checkedAt: at, problem: outcome.verdict === 'ok' ? null : outcome.problem }
  if (outcome.verdict === 'ok') return { ...base, state: 'active', failingSince: null, verifiedAt: current.verifiedAt ?? at }
  const overdue = current.failingSince !== null && now.getTime() - Date.parse(current.failingSince) >= graceMs
  if (current.state === 'failing' && overdue) return { ...base, state: 'removed' }
  if (outcome.verdict === 'unknown') return base
  if (current.state === 'active') return { ...base, state: 'failing', failingSince: at }
  return base
}

/** When a failing domain will be released, if nothing changes. */
export const releaseAt = (failingSince: string | null, graceMs: number): string | null =>
  failingSince === null ? null : new Date(Date.parse(failingSince) + graceMs).toISOString()
