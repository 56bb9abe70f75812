import type { Selectable, Updateable } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import { type Db, isPostgres, nowIso } from './db.ts'
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from './schema.ts'

type EndpointRow = Selectable<WebhookEndpointsTable>
type DeliveryRow = Selectable<WebhookDeliveriesTable>

export interface StoredEndpoint extends CamelCased<Omit<EndpointRow, 'event_types' | 'profile_ids' | 'enabled'>> {
  eventTypes: string[]
  profileIds: number[] | null
  enabled: boolean
}

export type DeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed'

export interface StoredDelivery extends CamelCased<Omit<DeliveryRow, 'status'>> {
  status: DeliveryStatus
}

const toEndpoint = (r: EndpointRow): StoredEndpoint =>
  camelRow(r, {
    eventTypes: JSON.parse(r.event_types) as string[],
    profileIds: r.profile_ids === null ? null : (JSON.parse(r.profile_ids) as number[]),
    enabled: r.enabled === 1,
  })

const toDelivery = (r: DeliveryRow): StoredDelivery => camelRow(r, { status: r.status as DeliveryStatus })

export interface NewEndpoint {
  userId: number
  url: string
  description: string
  eventTypes: string[]
  profileIds: number[] | null
  enabled: boolean
  secret: string
}

async function createEndpoint(db: Db, e: NewEndpoint): Promise<StoredEndpoint> {
  const now = nowIso()
  const row = await db
    .insertInto('webhook_endpoints')
    .values({
      user_id: e.userId,
      url: e.url,
      description: e.description,
      event_types: JSON.stringify(e.eventTypes),
      profile_ids: e.profileIds === null ? null : JSON.stringify(e.profileIds),
      enabled: e.enabled ? 1 : 0,
      secret: e.secret,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toEndpoint(row)
}

async function endpointsOfUser(db: Db, userId: number): Promise<StoredEndpoint[]> {
  const rows = await db.selectFrom('webhook_endpoints').selectAll().where('user_id', '=', userId).orderBy('id').execute()
  return rows.map(toEndpoint)
}

async function endpointOfUser(db: Db, userId: number, id: number): Promise<StoredEndpoint | undefined> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()
  return row && toEndpoint(row)
}

async function endpointById(db: Db, id: number): Promise<StoredEndpoint | undefined> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst()
  return row && toEndpoint(row)
}

export interface EndpointChanges {
  url?: string
  description?: string
  eventTypes?: string[]
  profileIds?: number[] | null
  enabled?: boolean
  disabledReason?: string | null
  secret?: string
  previousSecret?: string | null
  previousSecretUntil?: string | null
  failingSince?: string | null
}

async function updateEndpoint(db: Db, id: number, c: EndpointChanges): Promise<StoredEndpoint | undefined> {
  const set: Updateable<WebhookEndpointsTable> = { updated_at: nowIso() }
  if (c.url !== undefined) set.url = c.url
  if (c.description !== undefined) set.description = c.description
  if (c.eventTypes !== undefined) set.event_types = JSON.stringify(c.eventTypes)
  if (c.profileIds !== undefined) set.profile_ids = c.profileIds === null ? null : JSON.stringify(c.profileIds)
  if (c.enabled !== undefined) set.enabled = c.enabled ? 1 : 0
  if (c.disabledReason !== undefined) set.disabled_reason = c.disabledReason
  if (c.secret !== undefined) set.secret = c.secret
  if (c.previousSecret !== undefined) set.previous_secret = c.previousSecret
  if (c.previousSecretUntil !== undefined) set.previous_secret_until = c.previousSecretUntil
  if (c.failingSince !== undefined) set.failing_since = c.failingSince
  const row = await db.updateTable('webhook_endpoints').set(set).where('id', '=', id).returningAll().executeTakeFirst()
  return row && toEndpoint(row)
}

async function deleteEndpoint(db: Db, userId: number, id: number): Promise<boolean> {
  const r = await db.deleteFrom('webhook_endpoints').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()
  return Number(r.numDeletedRows) > 0
}

/** The account's switched-on endpoints that take any of `eventTypes` for this page (profileId null: any), in one read. */
async function subscribers(db: Db, userId: number, eventTypes: string | readonly string[], profileId: number | null): Promise<StoredEndpoint[]> {
  const wanted = typeof eventTypes === 'string' ? [eventTypes] : eventTypes
  const rows = await db.selectFrom('webhook_endpoints').selectAll().where('user_id', '=', userId).where('enabled', '=', 1).execute()
  return rows
    .map(toEndpoint)
    .filter((e) => wanted.some((t) => e.eventTypes.includes(t)) && (profileId === null || e.profileIds === null || e.profileIds.includes(profileId)))
}

/** The accounts with a switched-on endpoint that takes any of `eventTypes`. */
async function listeningUsers(db: Db, eventTypes: readonly string[]): Promise<number[]> {
  const rows = await db.selectFrom('webhook_endpoints').select(['user_id', 'event_types']).where('enabled', '=', 1).execute()
  const users = rows.filter((r) => eventTypes.some((t) => (JSON.parse(r.event_types) as string[]).includes(t))).map((r) => r.user_id)
  return [...new Set(users)].sort((a, b) => a - b)
}

export interface ScheduledSlot {
  slotId: number
  type: string
  profileId: number
  login: string
  userId: number
  timezone: string
  startsAt: string | null
  endsAt: string | null
}

/**
 * The shown (not hidden) blocks of these accounts whose start or end, as written, falls between
 * `low` and `high` (ISO text: a time without an offset is the owner's, so callers widen the range
 * by the largest offset and compare instants themselves).
 */
async function scheduledSlots(db: Db, userIds: number[], low: string, high: string): Promise<ScheduledSlot[]> {
  if (userIds.length === 0) return []
  return db
    .selectFrom('slots')
    .innerJoin('profiles', 'profiles.id', 'slots.profile_id')
    .innerJoin('users', 'users.id', 'profiles.user_id')
    .select([
      'slots.id as slotId',
      'slots.type as type',
      'profiles.id as profileId',
      'profiles.login as login',
      'users.id as userId',
      'users.timezone as timezone',
      'slots.starts_at as startsAt',
      'slots.ends_at as endsAt',
    ])
    .where('users.id', 'in', userIds)
    .where('slots.hidden', '=', 0)
    .where((w) =>
      w.or([
        w.and([w('slots.starts_at', '>=', low), w('slots.starts_at', '<=', high)]),
        w.and([w('slots.ends_at', '>=', low), w('slots.ends_at', '<=', high)]),
      ]),
    )
    .orderBy('slots.id')
    .execute()
}

export interface NewDelivery {
  endpointId: number
  messageId: string
  eventType: string
  payload: string
  nextAttemptAt: string
}

async function enqueue(db: Db, deliveries: NewDelivery[]): Promise<StoredDelivery[]> {
  if (deliveries.length === 0) return []
  const now = nowIso()
  const rows = await db
    .insertInto('webhook_deliveries')
    .values(
      deliveries.map((d) => ({
        endpoint_id: d.endpointId,
        message_id: d.messageId,
        event_type: d.eventType,
        payload: d.payload,
        status: 'pending',
        next_attempt_at: d.nextAttemptAt,
        created_at: now,
      })),
    )
    .returningAll()
    .execute()
  return rows.map(toDelivery)
}

/**
 * Takes up to `limit` deliveries that are due (pending and due, or sending under a claim that
 * lapsed because its instance died) and marks them sending until `claimUntil`. On PostgreSQL
 * the rows are locked with SKIP LOCKED, so instances claiming at once each get other rows; on
 * SQLite one writer at a time makes the update itself exclusive.
 */
async function claimDue(db: Db, now: string, claimUntil: string, limit: number): Promise<StoredDelivery[]> {
  let due = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where((w) =>
      w.or([w.and([w('status', '=', 'pending'), w('next_attempt_at', '<=', now)]), w.and([w('status', '=', 'sending'), w('claimed_until', '<', now)])]),
    )
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
  if (isPostgres(db)) due = due.forUpdate().skipLocked()
  const rows = await db.updateTable('webhook_deliveries').set({ status: 'sending', claimed_until: claimUntil }).where('id', 'in', due).returningAll().execute()
  return rows.map(toDelivery).sort((a, b) => a.id - b.id)
}

export interface AttemptOutcome {
  status: DeliveryStatus
  attempts: number
  nextAttemptAt: string
  lastStatus: number | null
  lastResponse: string | null
  lastError: string | null
  lastAttemptAt: string
}

async function recordAttempt(db: Db, id: number, o: AttemptOutcome): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: o.status,
      attempts: o.attempts,
      next_attempt_at: o.nextAttemptAt,
      claimed_until: null,
      last_status: o.lastStatus,
      last_response: o.lastResponse,
      last_error: o.lastError,
      last_attempt_at: o.lastAttemptAt,
    })
    .where('id', '=', id)
    .execute()
}

/** The endpoint's deliveries, newest first, below `beforeId` when given. */
async function deliveriesOf(db: Db, endpointId: number, o: { beforeId?: number; limit: number }): Promise<StoredDelivery[]> {
  let q = db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId)
  if (o.beforeId !== undefined) q = q.where('id', '<', o.beforeId)
  const rows = await q.orderBy('id', 'desc').limit(o.limit).execute()
  return rows.map(toDelivery)
}

async function deliveryOf(db: Db, endpointId: number, id: number): Promise<StoredDelivery | undefined> {
  const row = await db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).where('id', '=', id).executeTakeFirst()
  return row && toDelivery(row)
}

/** Puts a finished delivery back in the queue, due now (its attempts start over). */
async function requeue(db: Db, id: number, now: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, claimed_until: null })
    .where('id', '=', id)
    .where('status', 'in', ['succeeded', 'failed'])
    .execute()
}

/** Drops the queue of a switched-off endpoint: what is pending will not be sent. */
async function failPending(db: Db, endpointId: number, reason: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_error: reason, claimed_until: null })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute()
}

export const webhooksRepository = Object.freeze({
  createEndpoint,
  endpointsOfUser,
  endpointOfUser,
  endpointById,
  updateEndpoint,
  deleteEndpoint,
  subscribers,
  listeningUsers,
  scheduledSlots,
  enqueue,
  claimDue,
  recordAttempt,
  deliveriesOf,
  deliveryOf,
  requeue,
  failPending,
})
