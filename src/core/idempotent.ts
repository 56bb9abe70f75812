import { setTimeout as sleep } from 'node:timers/promises'
import type { Principal } from '../auth/principal.ts'
import { sha256 } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { AppError, invalidField } from './errors.ts'
import { limits } from '../limits.ts'

const WAIT_FOR_PENDING_MS = 10_000

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
 * responses, see http/idempotency.ts). The same store and semantics: a repeat of the same call
 * within the window answers the first result again without running anything; the key on a
 * different call is idempotency_mismatch; a repeat while the first still runs waits for it (up
 * to 10 s, then idempotency_in_progress). A call that fails frees its key, so a fixed retry can
 * use it. Dry runs should not come here: they store nothing, so there is nothing to repeat.
 */
export async function runIdempotent<T>(ctx: AppContext, principal: Principal, call: IdempotentCall, work: () => Promise<T>): Promise<T> {
  if (call.key.length === 0 || call.key.length > limits.idempotencyKeyLength) {
    throw invalidField('idempotencyKey', `Must be 1 to ${limits.idempotencyKeyLength} characters.`)
  }
  const userId = principal.user.id
  const print = sha256(`use-case ${call.operation}\n${JSON.stringify(call.input) ?? ''}`)
  const deadline = Date.now() + WAIT_FOR_PENDING_MS
  for (;;) {
    const claim = await ctx.idempotency.claim(userId, call.key, print)
    if (claim.kind === 'claimed') break
    if (claim.fingerprint !== print) throw new AppError('idempotency_mismatch')
    if (claim.kind === 'done') return (claim.response.payload === '' ? undefined : JSON.parse(claim.response.payload)) as T
    if (Date.now() > deadline) throw new AppError('idempotency_in_progress')
    await sleep(25)
  }
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
