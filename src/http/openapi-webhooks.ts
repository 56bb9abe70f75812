import { WEBHOOK_EVENTS, type WebhookEventType } from '../webhooks/event-types.ts'

// OpenAPI 3.1's top-level `webhooks`: what Slotline POSTs to an endpoint, one entry per event
// type, each body described from the very TypeBox schema the events are built to.

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
})

const HEADERS = [
  header('webhook-id', 'The message id: the same on every attempt of one delivery, so a receiver can drop repeats.', 'msg_2b1NfPqA7sNwZ0c9kTgY0w'),
  header('webhook-timestamp', 'When this attempt was signed, in seconds since 1970 (UTC); refuse ones far from your clock.', '1764236400'),
  header(
    'webhook-signature',
    'Space-separated `v1,<base64>` HMAC-SHA256 signatures of `{webhook-id}.{webhook-timestamp}.{body}` (Standard Webhooks), one per secret in use: two while a rotated-out secret is in its grace period.',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
]

const operationId = (type: string) => `on${type.replace(/(^|[._])(\w)/g, (_m, _sep, c: string) => c.toUpperCase())}`

/** The `webhooks` section; `document` turns a TypeBox schema into the document's JSON Schema. */
export function webhooksSection(document: (schema: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const type of Object.keys(WEBHOOK_EVENTS) as WebhookEventType[]) {
    const event = WEBHOOK_EVENTS[type]
    out[type] = {
      post: {
        operationId: operationId(type),
        summary: event.summary,
        description: `${event.summary} Sent as a Standard Webhooks delivery to every switched-on endpoint that takes \`${type}\` (POST /webhooks); verify the signature before trusting the body.`,
        security: [],
        parameters: HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['type', 'timestamp', 'data'],
                additionalProperties: false,
                properties: {
                  type: { type: 'string', const: type },
                  timestamp: { type: 'string', format: 'date-time', description: 'When the event happened.' },
                  data: document(event.data),
                },
              },
              example: { type, timestamp: '2026-11-27T09:30:00.000Z', data: event.example },
            },
          },
        },
        responses: {
          '200': { description: 'Any 2xx: received. Answer quickly (within 15 s) and do the work afterwards.' },
          '410': { description: 'Gone: the endpoint is switched off and its queued deliveries dropped, until its owner switches it on again.' },
          '429': {
            description:
              'Slow down (as do 502, 503 and 504): the delivery is tried again after the Retry-After header (seconds or a date, up to a day) or the schedule, whichever is later. Other answers are tried again on the schedule for about three days.',
          },
        },
      },
    }
  }
  return out
}
