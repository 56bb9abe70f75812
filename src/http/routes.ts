import type { Static, TSchema } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import type { Ability } from '../auth/principal.ts'
import type { LimitGroup } from '../infra/token-limits.ts'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
export type Scope = 'public' | Ability

export type { Principal }

type In<S> = S extends TSchema ? Static<S> : undefined

export interface HandlerInput<B, Q, P> {
  ctx: AppContext
  /** The authenticated caller (absent only on public rows). */
  principal: Principal
  body: B
  query: Q
  params: P
  req: FastifyRequest
  reply: FastifyReply
  /** Precognition: pass it to the use case, which runs every check and stores nothing. */
  dryRun: boolean
  /** Every route table this app serves (the OpenAPI document is built from them). */
  modules: readonly RouteModule[]
}

/**
 * One row of a resource's endpoint table. The same row configures validation, auth,
 * rate limits, idempotency, Precognition and its OpenAPI operation.
 */
export interface RouteRow<B extends TSchema | undefined = any, Q extends TSchema | undefined = any, P extends TSchema | undefined = any> {
  method: Method
  url: string
  operationId: string
  summary: string
  description?: string
  scope: Scope
  params?: P
  query?: Q
  body?: B
  /** Success status → response schema (null: no body). The first entry is the status sent. */
  reply: Record<number, TSchema | null>
  /** Extra documented error statuses beyond those the row's shape implies. */
  errors?: number[]
  /** An extra rate-limit group counted on top of the global limits. */
  limit?: LimitGroup
  /** Takes multipart/form-data (the handler reads it) as well as JSON. */
  multipart?: boolean
  /** Answers its own content type (markdown, HTML): the handler's return value is sent as is. */
  raw?: boolean
  /** The content type a raw row answers, for the document (default: text/markdown for markdown rows, else JSON). */
  rawType?: string
  /** Bodies the handler reads itself, by content type, for the document (a zip, a document of its own schema). */
  requestContent?: Record<string, { schema: unknown; example?: unknown }>
  /** Where a schema the row names but does not embed is served (the page document's). */
  externalDocs?: { url: string; description: string }
  handler: (input: HandlerInput<In<B>, In<Q>, In<P>>) => Promise<unknown>
}

/** Identity helper: infers handler input types from the row's schemas. */
export function route<B extends TSchema | undefined = undefined, Q extends TSchema | undefined = undefined, P extends TSchema | undefined = undefined>(
  row: RouteRow<B, Q, P>,
): RouteRow<B, Q, P> {
  return row
}

export interface RouteModule {
  /** OpenAPI tag and docs section. */
  tag: string
  description: string
  prefix: string
  rows: RouteRow[]
}

export function routes(tag: string, description: string, prefix: string, rows: RouteRow[]): RouteModule {
  return { tag, description, prefix, rows }
}

/** A success body with `meta` beside `data` (or `meta` alone, as bulk delete answers). */
export class Envelope {
  constructor(readonly body: { data?: unknown; meta?: unknown }) {}
}
export const withMeta = (data: unknown, meta: Record<string, unknown>) => new Envelope({ data, meta })
export const metaOnly = (meta: Record<string, unknown>) => new Envelope({ meta })

export const isWrite = (method: Method) => method !== 'GET'
