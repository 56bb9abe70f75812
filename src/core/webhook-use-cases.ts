import { isIP } from 'node:net'
import { type Static, Type } from '@sinclair/typebox'
import type { Principal } from '../auth/principal.ts'
import { seal } from '../auth/sealing.ts'
import type { AppContext } from '../context.ts'
import type { Db } from '../store/db.ts'
import { isPublicAddress } from '../media/ip-policy.ts'
import { profilesRepository } from '../store/profiles.ts'
import { type StoredDelivery, type StoredEndpoint, webhooksRepository } from '../store/webhooks.ts'
import { SUBSCRIBABLE_EVENTS } from '../webhooks/event-types.ts'
import { newMessageId, payloadOf } from '../webhooks/outbox.ts'
import { SECRET_PURPOSE } from '../webhooks/sender.ts'
import { newSecret } from '../webhooks/signing.ts'
import { AppError, type FieldErrors, invalid, notFound } from '../kernel/errors.ts'
import { Nullable } from '../kernel/schema-helpers.ts'
import { readAccount, type WriteOptions, writeAccount } from './unit-of-work.ts'

// Webhooks: an account's endpoints, which receive signed deliveries of the events they take.

/** Endpoints one account may have. */
export const MAX_ENDPOINTS = 20
/** How long a rotated-out secret still signs by default, so receivers can switch without a gap. */
const DEFAULT_GRACE_HOURS = 24
const DELIVERIES_PAGE_MAX = 100

const EventTypeName = Type.Union(
  SUBSCRIBABLE_EVENTS.map((t) => Type.Literal(t)),
  { description: 'An event type; see the webhooks section of this document for each one’s data.' },
)

const endpointFields = {
  url: Type.String({
    maxLength: 2000,
    description: 'Where deliveries are POSTed: an https (or http) URL on a public address.',
    examples: ['https://hooks.example.com/slotline'],
  }),
  description: Type.String({ maxLength: 200, description: 'A label to recognise the endpoint by.', examples: ['Leads to the CRM'] }),
  eventTypes: Type.Array(EventTypeName, {
    minItems: 1,
    maxItems: SUBSCRIBABLE_EVENTS.length,
    description: 'The events to send (each once; repeats are dropped).',
  }),
  profileIds: Nullable(
    Type.Array(Type.Integer({ minimum: 1 }), {
      minItems: 1,
      maxItems: 100,
      description: 'Only these pages; null for every page of the account (repeats are dropped).',
    }),
  ),
  enabled: Type.Boolean({ description: 'Whether deliveries are sent. Default true.' }),
}

export const NewEndpoint = Type.Object(
  {
    url: endpointFields.url,
    description: Type.Optional(endpointFields.description),
    eventTypes: endpointFields.eventTypes,
    profileIds: Type.Optional(endpointFields.profileIds),
    enabled: Type.Optional(endpointFields.enabled),
  },
  { additionalProperties: false },
)
export type NewEndpoint = Static<typeof NewEndpoint>

export const EndpointChanges = Type.Partial(Type.Object(endpointFields), { additionalProperties: false })
export type EndpointChanges = Static<typeof EndpointChanges>

export const SecretRotation = Type.Object(
  {
    graceHours: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 168, description: `How long the old secret still signs beside the new one (default ${DEFAULT_GRACE_HOURS}).` }),
    ),
  },
  { additionalProperties: false },
)
export type SecretRotation = Static<typeof SecretRotation>

export const Endpoint = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    description: Type.String(),
    eventTypes: Type.Array(Type.String()),
    profileIds: Nullable(Type.Array(Type.Integer())),
    enabled: Type.Boolean(),
    disabledReason: Nullable(
      Type.Union([Type.Literal('gone'), Type.Literal('failing')], {
        description: 'Why the service switched it off: it answered 410, or failed for five days.',
      }),
    ),
    failingSince: Nullable(Type.String({ format: 'date-time', description: 'Since when every delivery has failed; null after a success.' })),
    secretRotatedUntil: Nullable(Type.String({ format: 'date-time', description: 'Until when the previous secret still signs too.' })),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
)
export type Endpoint = Static<typeof Endpoint>

export const Delivery = Type.Object(
  {
    id: Type.Integer(),
    messageId: Type.String({ description: 'The webhook-id header, the same on every attempt.' }),
    eventType: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('sending'), Type.Literal('succeeded'), Type.Literal('failed')]),
    attempts: Type.Integer(),
    nextAttemptAt: Nullable(Type.String({ format: 'date-time', description: 'When it is tried next; null once finished.' })),
    lastStatus: Nullable(Type.Integer({ description: 'The HTTP status of the last answer.' })),
    lastResponse: Nullable(Type.String({ description: 'The first bytes of the last answer.' })),
    lastError: Nullable(Type.String({ description: 'Why the last attempt got no answer.' })),
    lastAttemptAt: Nullable(Type.String({ format: 'date-time' })),
    createdAt: Type.String({ format: 'date-time' }),
    payload: Type.String({ description: 'The JSON body sent.' }),
  },
  { additionalProperties: false },
)
export type Delivery = Static<typeof Delivery>

export const DeliveriesQuery = Type.Object(
  {
    cursor: Type.Optional(Type.Integer({ minimum: 1, description: 'meta.nextCursor of the previous page.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: DELIVERIES_PAGE_MAX, default: 25 })),
  },
  { additionalProperties: false },
)
export type DeliveriesQuery = Static<typeof DeliveriesQuery>

const endpointView = (e: StoredEndpoint): Endpoint => ({
  id: e.id,
  url: e.url,
  description: e.description,
  eventTypes: e.eventTypes,
  profileIds: e.profileIds,
  enabled: e.enabled,
  disabledReason: (e.disabledReason as Endpoint['disabledReason']) ?? null,
  failingSince: e.failingSince,
  secretRotatedUntil: e.previousSecret && e.previousSecretUntil && Date.parse(e.previousSecretUntil) > Date.now() ? e.previousSecretUntil : null,
  createdAt: e.createdAt,
})

const deliveryView = (d: StoredDelivery): Delivery => ({
  id: d.id,
  messageId: d.messageId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: d.status === 'pending' || d.status === 'sending' ? d.nextAttemptAt : null,
  lastStatus: d.lastStatus,
  lastResponse: d.lastResponse,
  lastError: d.lastError,
  lastAttemptAt: d.lastAttemptAt,
  createdAt: d.createdAt,
  payload: d.payload,
})

/**
 * What can be said of a URL without a network: http(s), no credentials, and not a private or
 * reserved address written out. A name is resolved and checked at every delivery (the guarded
 * request), where a name that moves inside is refused too.
 */
function urlProblem(ctx: AppContext, raw: string): string | undefined {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'Enter a full URL, such as https://hooks.example.com/slotline.'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must start with https:// (or http://).'
  if (url.username || url.password) return 'The URL must not carry a user name or password.'
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  if (ctx.config.webhookUrlAllowHosts.includes(`${url.hostname}:${port}`)) return undefined
  if (url.port) return 'Only the default ports are allowed (443 for https, 80 for http).'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host) && !isPublicAddress(host)) return 'The URL points to a private or reserved network address; use a public one.'
  if (/^localhost$|\.localhost$|\.local$|\.internal$/i.test(host)) return 'The URL points to a private network name; use a public one.'
  return undefined
}

async function checkFields(ctx: AppContext, userId: number, input: EndpointChanges): Promise<void> {
  const problems: FieldErrors = {}
  if (input.url !== undefined) {
    const problem = urlProblem(ctx, input.url)
    if (problem) problems.url = [problem]
  }
  if (input.profileIds) {
    const own = new Set((await profilesRepository.listByUser(ctx.db, userId)).map((p) => p.id))
    input.profileIds.forEach((id, i) => {
      if (!own.has(id)) problems[`profileIds.${i}`] = ['No page of yours has this id.']
    })
  }
  if (Object.keys(problems).length) throw invalid(problems)
}

/** The principal's endpoint, read through `db` (the caller's transaction, when it has one). */
async function ownEndpoint(db: Db, principal: Principal, id: number): Promise<StoredEndpoint> {
  const endpoint = await webhooksRepository.endpointOfUser(db, principal.user.id, id)
  if (!endpoint) throw notFound('webhook endpoint')
  return endpoint
}

const sealed = (ctx: AppContext, secret: string) => seal(ctx.secret, SECRET_PURPOSE, secret)

async function list(ctx: AppContext, principal: Principal): Promise<Endpoint[]> {
  return readAccount(ctx, principal, async (db) => (await webhooksRepository.endpointsOfUser(db, principal.user.id)).map(endpointView))
}

async function get(ctx: AppContext, principal: Principal, id: number): Promise<Endpoint> {
  return readAccount(ctx, principal, async (db) => endpointView(await ownEndpoint(db, principal, id)))
}

/** A new endpoint and its signing secret, which this answer alone shows. */
async function create(ctx: AppContext, principal: Principal, input: NewEndpoint, options: WriteOptions = {}): Promise<{ endpoint: Endpoint; secret: string }> {
  await checkFields(ctx, principal.user.id, input)
  const secret = newSecret()
  return writeAccount(ctx, principal, options, async (trx) => {
    if ((await webhooksRepository.endpointsOfUser(trx, principal.user.id)).length >= MAX_ENDPOINTS) {
      throw new AppError('limit_reached', { message: `An account can have ${MAX_ENDPOINTS} webhook endpoints; remove one first.` })
    }
    const endpoint = await webhooksRepository.createEndpoint(trx, {
      userId: principal.user.id,
      url: input.url,
      description: input.description ?? '',
      eventTypes: [...new Set(input.eventTypes)],
      profileIds: input.profileIds ? [...new Set(input.profileIds)] : null,
      enabled: input.enabled ?? true,
      secret: sealed(ctx, secret),
    })
    return { endpoint: endpointView(endpoint), secret }
  })
}

async function update(ctx: AppContext, principal: Principal, id: number, input: EndpointChanges, options: WriteOptions = {}): Promise<Endpoint> {
  await checkFields(ctx, principal.user.id, input)
  return writeAccount(ctx, principal, options, async (trx) => {
    await ownEndpoint(trx, principal, id)
    // Switching it on again clears what the service said when it switched it off.
    const cleared = input.enabled === true ? { disabledReason: null, failingSince: null } : {}
    const unique = {
      ...(input.eventTypes && { eventTypes: [...new Set(input.eventTypes)] }),
      ...(input.profileIds && { profileIds: [...new Set(input.profileIds)] }),
    }
    const endpoint = await webhooksRepository.updateEndpoint(trx, id, { ...input, ...unique, ...cleared })
    return endpointView(endpoint!)
  })
}

async function remove(ctx: AppContext, principal: Principal, id: number, options: WriteOptions = {}): Promise<void> {
  await writeAccount(ctx, principal, options, async (trx) => {
    if (!(await webhooksRepository.deleteEndpoint(trx, principal.user.id, id))) throw notFound('webhook endpoint')
  })
}

/** A new secret; the old one keeps signing beside it for the grace, then stops. */
async function rotateSecret(
  ctx: AppContext,
  principal: Principal,
  id: number,
  input: SecretRotation,
  options: WriteOptions = {},
): Promise<{ endpoint: Endpoint; secret: string }> {
  const secret = newSecret()
  return writeAccount(ctx, principal, options, async (trx) => {
    const current = await ownEndpoint(trx, principal, id)
    const graceMs = (input.graceHours ?? DEFAULT_GRACE_HOURS) * 3600_000
    const endpoint = await webhooksRepository.updateEndpoint(trx, id, {
      secret: sealed(ctx, secret),
      previousSecret: graceMs > 0 ? current.secret : null,
      previousSecretUntil: graceMs > 0 ? new Date(Date.now() + graceMs).toISOString() : null,
    })
    return { endpoint: endpointView(endpoint!), secret }
  })
}

/** Queues a `webhook.test` delivery to the endpoint, whatever events it takes. */
async function sendTest(ctx: AppContext, principal: Principal, id: number, options: WriteOptions = {}): Promise<Delivery> {
  const delivery = await writeAccount(ctx, principal, options, async (trx) => {
    await ownEndpoint(trx, principal, id)
    const at = new Date()
    const [queued] = await webhooksRepository.enqueue(trx, [
      {
        endpointId: id,
        messageId: newMessageId(),
        eventType: 'webhook.test',
        payload: payloadOf('webhook.test', at, { message: 'A test event from Slotline.' }),
        nextAttemptAt: at.toISOString(),
      },
    ])
    return deliveryView(queued)
  })
  if (!options.dryRun) ctx.webhooks.nudge()
  return delivery
}

async function deliveries(
  ctx: AppContext,
  principal: Principal,
  id: number,
  query: DeliveriesQuery = {},
): Promise<{ deliveries: Delivery[]; nextCursor: number | null; limit: number }> {
  return readAccount(ctx, principal, async (db) => {
    await ownEndpoint(db, principal, id)
    const limit = query.limit ?? 25
    const rows = await webhooksRepository.deliveriesOf(db, id, { beforeId: query.cursor, limit: limit + 1 })
    const page = rows.slice(0, limit)
    return { deliveries: page.map(deliveryView), nextCursor: rows.length > limit ? page[page.length - 1].id : null, limit }
  })
}

/** Sends a finished delivery again, as it was (same id and body), with its attempts starting over. */
async function redeliver(ctx: AppContext, principal: Principal, id: number, deliveryId: number, options: WriteOptions = {}): Promise<Delivery> {
  const delivery = await writeAccount(ctx, principal, options, async (trx) => {
    await ownEndpoint(trx, principal, id)
    const found = await webhooksRepository.deliveryOf(trx, id, deliveryId)
    if (!found) throw notFound('delivery')
    if (found.status === 'pending' || found.status === 'sending') return deliveryView(found)
    await webhooksRepository.requeue(trx, deliveryId, new Date().toISOString())
    return deliveryView((await webhooksRepository.deliveryOf(trx, id, deliveryId))!)
  })
  if (!options.dryRun) ctx.webhooks.nudge()
  return delivery
}

export const webhookUseCases = Object.freeze({ list, get, create, update, remove, rotateSecret, sendTest, deliveries, redeliver })
