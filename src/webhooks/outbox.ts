import { randomBytes } from 'node:crypto'
import type { Db } from '../store/db.ts'
import { webhooksRepository } from '../store/webhooks.ts'
import type { WebhookEventData, WebhookEventType } from './event-types.ts'

/** The body every delivery carries, per the Standard Webhooks specification. */
export const payloadOf = (type: string, at: Date, data: unknown): string => JSON.stringify({ type, timestamp: at.toISOString(), data })

export const newMessageId = (): string => `msg_${randomBytes(16).toString('base64url')}`

export interface WebhookEvent<T extends WebhookEventType> {
  userId: number
  /** The page it is about, for endpoints limited to some pages; null for account-wide events. */
  profileId: number | null
  type: T
  data: WebhookEventData<T>
  at?: Date
}

/**
 * Queues one delivery of the event per endpoint of the account that takes it, in the caller's
 * transaction: the event is stored if and only if the change it reports is. Returns how many
 * were queued (none when nobody listens, at the cost of one indexed read).
 */
export async function queueEvent<T extends WebhookEventType>(trx: Db, event: WebhookEvent<T>): Promise<number> {
  const endpoints = await webhooksRepository.subscribers(trx, event.userId, event.type, event.profileId)
  if (endpoints.length === 0) return 0
  const at = event.at ?? new Date()
  const payload = payloadOf(event.type, at, event.data)
  await webhooksRepository.enqueue(
    trx,
    endpoints.map((e) => ({ endpointId: e.id, messageId: newMessageId(), eventType: event.type, payload, nextAttemptAt: at.toISOString() })),
  )
  return endpoints.length
}
