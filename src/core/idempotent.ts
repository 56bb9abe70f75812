import { setTimeout as sleep } from 'node:timers/promises'
import type { Principal } from '../auth/principal.ts'
import { sha256 } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { AppError, invalidField } from '../kernel/errors.ts'
import { limits } from '../kernel/limits.ts'
import type { StoredResponse } from '../infra/idempotency-store.ts'

const WAIT_FOR_PENDING_MS = 10_000

/** A key as a client sent it (`field` names where: the Idempotency-Key header, an MCP argument). */
export function checkIdempotencyKey(key: string, field: string): void {
  if (key.length === 0 || key.length > limits.idempotencyKeyLength) {
    throw invalidField(field, `Must be 1 to ${limits.idempotencyKeyLength} characters.`)
  }
}

/**
 * The one claim of every face: the key is this call's now ('claimed'), or it was used before by
 * the same call, whose kept answer comes back ('done'). The key on a different call is
 * idempotency_mismatch; a call still running under it is waited for (up to 10 s, then
 * idempotency_in_progress).
 */
export async function claimIdempotencyKey(
  ctx: AppContext,
  userId: number,
  key: string,
  print: string,
): Promise<{ kind: 'claimed' } | { kind: 'done'; response: StoredResponse }> {
  const deadline = Date.now() + WAIT_FOR_PENDING_MS
  for (;;) {
    const claim = await ctx.idempotency.claim(userId, key, print)
    if (claim.kind === 'claimed') return claim
    if (claim.fingerprint && claim.fingerprint !== print) throw new AppError('idempotency_mismatch')
    if (claim.kind === 'done') return claim
    if (Date.now() > deadline) throw new AppError('idempotency_in_progress')
    await sleep(25)
  }
}

/** What makes two calls "the same": the operation's name and its input as given. */
export interface IdempotentCall {
  /** The client's key (an MCP tool's `idempotencyKey`), 1 to limits.idempotencyKeyLength characters. */
  key: string
  /** A stable name of the use case, e.g. 'slots.create'. */
  operation: string
  /** Everything the use case receives besides the principal: profile key and input. */
  input: unknown
}

/**
 * A use case run at most once per (account, key), for faces other than HTTP (which keeps whole
 * responses, see http/idempotency.ts). The same store, claim and semantics: a repeat of the same call
 * within the window answers the first result again without running anything; the key on a
 * different call is idempotency_mismatch; a repeat while the first still runs waits for it (up
 * to 10 s, then idempotency_in_progress). A call that fails frees its key, so a fixed retry can
 * use it. Dry runs should not come here: they store nothing, so there is nothing to repeat.
 */
export async function runIdempotent<T>(ctx: AppContext, principal: Principal, call: IdempotentCall, work: () => Promise<T>): Promise<T> {
  checkIdempotencyKey(call.key, 'idempotencyKey')
  const userId = principal.user.id
  const print = sha256(`use-case ${call.operation}\n${JSON.stringify(call.input) ?? ''}`)
  const claim = await claimIdempotencyKey(ctx, userId, call.key, print)
  if (claim.kind === 'done') return (claim.response.payload === '' ? undefined : JSON.parse(claim.response.payload)) as T
  let result: T
  try {
    result = await work()
  } catch (err) {
    await ctx.idempotency.release(userId, call.key)
    throw err
  }
  const payload = result === undefined ? '' : JSON.stringify(result)
  await ctx.idempotency.complete(userId, call.key, { status: 200, contentType: 'application/json', payload })
  return result
}
