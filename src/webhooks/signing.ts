import { randomBytes } from 'node:crypto'
import type * as Standardwebhooks from 'standardwebhooks'
import { onFirstUse } from '../kernel/on-first-use.ts'

const standardwebhooks = onFirstUse<typeof Standardwebhooks>('standardwebhooks')

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`

/**
 * The `webhook-signature` header: one `v1,<base64>` per secret, space-separated, so a receiver
 * that still holds the previous secret during a rotation verifies as well as one with the new.
 */
export function signatureHeader(secrets: readonly string[], messageId: string, at: Date, body: string): string {
  return secrets.map((secret) => new (standardwebhooks().Webhook)(secret).sign(messageId, at, body)).join(' ')
}

/** The three headers of a delivery, per the Standard Webhooks specification. */
export function signedHeaders(secrets: readonly string[], messageId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatureHeader(secrets, messageId, at, body),
  }
}
