import { unseal } from '../auth/sealing.ts'
import { mailerOf } from '../auth/mailer.ts'
import type { AppContext } from '../context.ts'
import { backgroundFailed, guarded } from '../jobs/background.ts'
import { type GuardedAnswer, guardedPost } from '../media/guarded-fetch.ts'
import { usersRepository } from '../store/users.ts'
import { type StoredDelivery, type StoredEndpoint, webhooksRepository } from '../store/webhooks.ts'
import { nextDelayMs, retryAfterMs } from './retry-schedule.ts'
import { signedHeaders } from './signing.ts'

/** What seals a webhook secret in the store (see auth/sealing.ts). */
export const SECRET_PURPOSE = 'webhook signing secret'

/** Sends the outbox: on every serving instance, each delivery by exactly one of them. */
export interface WebhookSender {
  /** Starts looking at the outbox every second; serving processes call it, the command line does not. */
  start(): void
  /** Looks at the outbox soon, after a commit that queued deliveries. */
  nudge(): void
  /** Claims what is due now and sends it; resolves with how many were attempted. */
  runOnce(): Promise<number>
  /** The clock deliveries are scheduled by; tests set it. */
  now: () => number
  random: () => number
  /** How long an attempt may take in all, answer included. */
  timeoutMs: number
}

const POLL_MS = 1000
/** Deliveries one instance takes at a time. */
const BATCH = 16
/** How long a claim holds: well past what an attempt may take, so only a dead instance's claims lapse. */
const claimMs = (timeoutMs: number) => 2 * timeoutMs + 5000
/** What is kept of an answer for the delivery log. */
const RESPONSE_BYTES = 1024
/** An endpoint whose every attempt failed for this long is switched off and its owner told. */
const FAILING_MS = 5 * 24 * 3600_000
/** Statuses that ask the sender to slow down, so a Retry-After they carry is honoured. */
const SLOW_DOWN = new Set([429, 502, 503, 504])

export function createWebhookSender(ctx: AppContext): WebhookSender {
  /** Attempts under way: a slow receiver holds its own delivery, never the others'. */
  const inFlight = new Set<Promise<void>>()
  let claiming: Promise<number> | undefined
  let again = false
  let timer: NodeJS.Timeout | undefined

  /** Claims what is due, up to the free places, and starts each attempt; resolves once claimed. */
  async function claimMore(): Promise<number> {
    let started = 0
    do {
      again = false
      const room = BATCH - inFlight.size
      if (room <= 0) break
      const now = sender.now()
      const due = await webhooksRepository.claimDue(ctx.db, iso(now), iso(now + claimMs(sender.timeoutMs)), room)
      for (const d of due) {
        const run: Promise<void> = attempt(ctx, sender, d).finally(() => {
          inFlight.delete(run)
          sender.nudge()
        })
        inFlight.add(run)
      }
      started += due.length
      if (due.length === room) again = true
    } while (again)
    return started
  }

  const sender: WebhookSender = {
    now: Date.now,
    random: Math.random,
    timeoutMs: ctx.config.webhookTimeoutMs,
    start() {
      if (timer) return
      timer = setInterval(
        guarded(ctx, 'webhooks', () => sender.nudge()),
        POLL_MS,
      )
      timer.unref()
      ctx.onClose(async () => {
        clearInterval(timer)
        await claiming
        await Promise.all(inFlight)
      })
    },
    nudge() {
      if (claiming) {
        again = true
        return
      }
      claiming = claimMore().finally(() => {
        claiming = undefined
      })
      claiming.catch((err) => backgroundFailed(ctx, 'webhooks', err))
    },
    async runOnce() {
      await claiming
      sender.nudge()
      const started = (await claiming) ?? 0
      await Promise.all(inFlight)
      return started
    },
  }

  return sender
}

const iso = (ms: number) => new Date(ms).toISOString()

function header(answer: GuardedAnswer, name: string): string | undefined {
  const value = answer.headers[name]
  return Array.isArray(value) ? value[0] : value
}

async function attempt(ctx: AppContext, sender: WebhookSender, d: StoredDelivery): Promise<void> {
  try {
    const endpoint = await webhooksRepository.endpointById(ctx.db, d.endpointId)
    if (!endpoint?.enabled) return await finish(ctx, sender, d, { status: 'failed', error: 'The endpoint is switched off.' })
    const at = sender.now()
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Slotline-Webhooks/1.0',
      ...signedHeaders(signingSecrets(ctx, endpoint, at), d.messageId, new Date(at), d.payload),
    }
    let answer: GuardedAnswer | undefined
    let error: string | null = null
    try {
      answer = await guardedPost(endpoint.url, d.payload, headers, {
        resolve: ctx.media.resolve,
        connect: ctx.media.connect,
        allowHostPorts: ctx.config.webhookUrlAllowHosts,
        timeoutMs: sender.timeoutMs,
        maxResponseBytes: RESPONSE_BYTES,
      })
    } catch (err) {
      error = (err as Error).message
    }
    await settle(ctx, sender, d, endpoint, answer, error)
  } catch (err) {
    // The claim lapses and another pass tries again; the process goes on.
    backgroundFailed(ctx, 'webhooks', err)
  }
}

async function settle(
  ctx: AppContext,
  sender: WebhookSender,
  d: StoredDelivery,
  endpoint: StoredEndpoint,
  answer: GuardedAnswer | undefined,
  error: string | null,
): Promise<void> {
  const now = sender.now()
  const attempts = d.attempts + 1
  const record = { attempts, lastStatus: answer?.status ?? null, lastResponse: answer?.body ?? null, lastError: error, lastAttemptAt: iso(now) }
  if (answer && answer.status >= 200 && answer.status <= 299) {
    await webhooksRepository.recordAttempt(ctx.db, d.id, { ...record, status: 'succeeded', nextAttemptAt: iso(now) })
    if (endpoint.failingSince) await webhooksRepository.updateEndpoint(ctx.db, endpoint.id, { failingSince: null })
    return
  }
  if (answer?.status === 410) {
    await webhooksRepository.recordAttempt(ctx.db, d.id, { ...record, status: 'failed', nextAttemptAt: iso(now) })
    return switchOff(ctx, endpoint, 'gone')
  }
  const retryAfter = answer && SLOW_DOWN.has(answer.status) ? retryAfterMs(header(answer, 'retry-after'), now) : undefined
  const delay = nextDelayMs(attempts, retryAfter, sender.random)
  await webhooksRepository.recordAttempt(ctx.db, d.id, {
    ...record,
    status: delay === undefined ? 'failed' : 'pending',
    nextAttemptAt: iso(now + (delay ?? 0)),
  })
  const failingSince = endpoint.failingSince ?? iso(now)
  if (!endpoint.failingSince) await webhooksRepository.updateEndpoint(ctx.db, endpoint.id, { failingSince })
  else if (now - Date.parse(failingSince) >= FAILING_MS) await switchOff(ctx, endpoint, 'failing')
}

async function finish(ctx: AppContext, sender: WebhookSender, d: StoredDelivery, o: { status: 'failed'; error: string }): Promise<void> {
  const now = iso(sender.now())
  await webhooksRepository.recordAttempt(ctx.db, d.id, {
    status: o.status,
    attempts: d.attempts,
    nextAttemptAt: now,
    lastStatus: null,
    lastResponse: null,
    lastError: o.error,
    lastAttemptAt: now,
  })
}

/** Turns an endpoint off for the receiver's sake, drops its queue, and tells its owner by mail. */
async function switchOff(ctx: AppContext, endpoint: StoredEndpoint, reason: 'gone' | 'failing'): Promise<void> {
  const why = reason === 'gone' ? 'It answered 410 Gone.' : 'Every delivery to it failed for five days.'
  await webhooksRepository.updateEndpoint(ctx.db, endpoint.id, { enabled: false, disabledReason: reason })
  await webhooksRepository.failPending(ctx.db, endpoint.id, `The endpoint was switched off. ${why}`)
  ctx.log.warn({ endpointId: endpoint.id, reason }, 'webhooks: endpoint switched off')
  const send = mailerOf(ctx.config)
  const owner = send && (await usersRepository.findById(ctx.db, endpoint.userId))
  if (!send || !owner) return
  await send({
    to: owner.email,
    subject: 'A webhook of your Slotline account was switched off',
    text: `Slotline stopped sending events to ${endpoint.url}. ${why}\n\nTurn it on again in ${ctx.config.publicUrl}/settings/webhooks once it can receive them.\n`,
  }).catch((err) => ctx.log.error({ err, endpointId: endpoint.id }, 'webhooks: could not tell the owner'))
}

/** The secrets that sign now: the current one, and the previous during its grace. */
function signingSecrets(ctx: AppContext, endpoint: StoredEndpoint, now: number): string[] {
  const current = unseal<string>(ctx.secret, SECRET_PURPOSE, endpoint.secret)
  if (current === undefined) throw new Error(`webhook endpoint ${endpoint.id}: its secret does not open with this service secret`)
  const previous =
    endpoint.previousSecret && endpoint.previousSecretUntil && Date.parse(endpoint.previousSecretUntil) > now
      ? unseal<string>(ctx.secret, SECRET_PURPOSE, endpoint.previousSecret)
      : undefined
  return previous ? [current, previous] : [current]
}

// The context holds this as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    /** Sends the webhook outbox (webhooks/sender.ts); serving processes start it. */
    readonly webhooks: WebhookSender
  }
}
