import type { TObject, TSchema } from '@sinclair/typebox'
import { SlotData } from '../core/use-cases.ts'
import type { Config } from '../config.ts'
import { ABILITY_GRANTS } from './discovery-document.ts'
import { errorTable } from '../kernel/errors.ts'
import { PageDocument } from '../transfer/page-document.ts'
import { Profile } from '../profiles/profile-schemas.ts'
import { slotTypes, writableTypes } from '../slots/registry.ts'
import { Slot } from '../slots/slot-resource.ts'
import { Visibility, VisibilityInput } from '../slots/shared/visibility.ts'
import { successStatus } from './register-routes.ts'
import { ErrorEnvelope } from './envelope-schemas.ts'
import { isWrite, type RouteModule, type RouteRow } from './routes.ts'
import { renderNextStepsIn } from '../kernel/next-step.ts'
import { restNextSteps } from './route-next-steps.ts'
import { webhooksSection } from './openapi-webhooks.ts'

const clone = (s: unknown) => JSON.parse(JSON.stringify(s))

const pascal = (type: string) => type.replace(/(^|[-_])(\w)/g, (_m, _sep, c: string) => c.toUpperCase())
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/**
 * The schemas a client generator should see by name: the resources, the error, and one data
 * schema per slot type. They are found by identity in the route schemas (TypeBox keeps the
 * objects it is given), so the document still comes from the schemas that validate.
 */
function namedSchemas(): Map<object, string> {
  const named = new Map<object, string>([
    [Slot, 'Slot'],
    [Visibility, 'Visibility'],
    [Profile, 'Profile'],
    [ErrorEnvelope, 'Error'],
    [PageDocument, 'PageDocument'],
  ])
  for (const [type, def] of Object.entries(slotTypes)) named.set(def.schema, `${pascal(type)}Data`)
  return named
}

/**
 * `SlotData`: the body of a new slot, one variant per writable type, told apart by `type`
 * (the validator accepts any object and checks it against the type's schema with messages per
 * field; this is what a typed client needs to build one).
 */
function slotDataComponents(named: Map<object, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  // A slot as read: its data is in one of the types' shapes (or anything, for a legacy type).
  out.Slot = documented(Slot, named, Slot) as Record<string, any>
  ;(out.Slot as Record<string, any>).properties.data = {
    description: 'The body, in the shape of its type’s schema (GET /slot-types/{type}); anything for a legacy type.',
    anyOf: [...Object.keys(slotTypes).map((t) => ref(`${pascal(t)}Data`)), { type: 'object', additionalProperties: true }],
  }
  const mapping: Record<string, string> = {}
  for (const type of writableTypes) {
    const name = `${pascal(type)}SlotData`
    mapping[type] = `#/components/schemas/${name}`
    out[name] = {
      type: 'object',
      description: `A new ${type} slot.`,
      required: ['type'],
      properties: { type: { type: 'string', const: type }, data: ref(`${pascal(type)}Data`), visibility: ref('VisibilityInput') },
      // The registry's example of the type: what the reference's request examples send.
      examples: [{ type, data: slotTypes[type].example }],
    }
  }
  // What every write may send beside data; a copy made optional is found by its text below.
  out.VisibilityInput = documented(VisibilityInput, named, VisibilityInput)
  out.SlotData = {
    description: 'A new slot: its type and the data in that type’s shape (GET /slot-types/{type}). Unknown and computed keys are 422, each named.',
    oneOf: writableTypes.map((t) => ref(`${pascal(t)}SlotData`)),
    discriminator: { propertyName: 'type', mapping },
  }
  return out
}

/** The core names no route; the document does (the slot types' own operation). */
const SLOT_DATA_IN_THE_API =
  'The slot body, in the shape of its type’s schema (GET /slot-types/{type}). Unknown keys and computed keys are 422, each one named.'

// Type.Optional(SlotData) is a copy carrying a modifier, so the body is recognised by its text.
const isSlotData = (s: unknown) =>
  s === SlotData || (!!s && (s as { description?: unknown }).description === (SlotData as { description?: unknown }).description)

const isVisibilityInput = (s: unknown) =>
  s === VisibilityInput || (!!s && (s as { description?: unknown }).description === (VisibilityInput as { description?: unknown }).description)

/** A plain JSON copy of `schema` with named schemas as $refs and the slot body per type. */
function documented(schema: unknown, named: Map<object, string>, root?: object): unknown {
  if (Array.isArray(schema)) return schema.map((s) => documented(s, named))
  if (!schema || typeof schema !== 'object') return schema
  const name = named.get(schema)
  if (name && schema !== root) return ref(name)
  if (isSlotData(schema)) {
    return { type: 'object', additionalProperties: true, description: SLOT_DATA_IN_THE_API }
  }
  if (isVisibilityInput(schema) && schema !== root) return ref('VisibilityInput')
  const obj = schema as { properties?: Record<string, unknown>; required?: string[] }
  // {type, data: SlotData, ...rest} with type required: a new slot, documented as SlotData.
  if (obj.properties && isSlotData(obj.properties.data) && obj.required?.includes('type')) {
    // `visibility` is part of every SlotData variant already.
    const { type: _type, data: _data, visibility: _visibility, ...rest } = obj.properties
    if (!Object.keys(rest).length) return ref('SlotData')
    // Each variant with the extra fields (`order`): a generator keeps `type` as the discriminant.
    const extra = { type: 'object', properties: documented(rest, named) }
    return { oneOf: writableTypes.map((t) => ({ allOf: [ref(`${pascal(t)}SlotData`), extra] })) }
  }
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) out[key] = documented(value, named)
  // A field with a default may be left out of a request (the validator fills it in), so a
  // generated client must not demand it.
  if (Array.isArray(out.required) && obj.properties) {
    const required = out.required.filter((k: string) => (obj.properties![k] as { default?: unknown } | undefined)?.default === undefined)
    if (required.length) out.required = required
    else delete out.required
  }
  return out
}

const errorStatuses: Record<number, string> = {
  400: 'The request could not be parsed.',
  401: 'Missing, invalid or revoked token.',
  403: 'The token lacks the ability this operation needs.',
  404: 'Not found (pages of other accounts included).',
  409: 'A business rule is violated: a count limit is reached, or a read-only resource.',
  413: 'The request body is too large.',
  415: 'The body is not in a content type this operation takes.',
  422: 'Validation failed: every offending field is listed in errors.',
  429: 'Rate limit exceeded; see Retry-After.',
  502: 'An upstream service failed.',
  503: 'An upstream service is unavailable.',
}

const exampleCode: Record<number, string> = {
  400: 'malformed_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'limit_reached',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'rate_limited',
  502: 'upstream_unavailable',
  503: 'upstream_unavailable',
}

/** The error statuses an operation can answer, from the row's shape plus its own list. */
function errorsFor(row: RouteRow, url: string): number[] {
  const out = new Set<number>(row.errors ?? [])
  // Every row is rate limited: by token, or by address without one.
  out.add(429)
  if (row.scope !== 'public') out.add(401)
  if (isWrite(row.method) && row.scope !== 'public') out.add(403)
  if (url.includes('{profileKey}') || url.includes('{slot}') || url.includes('{type}')) out.add(404)
  // Path parameters are validated too: GET …/slots/abc is a 422.
  if (row.body || row.query || row.params || isWrite(row.method)) out.add(422)
  if (row.body || row.multipart || row.requestContent) {
    out.add(400)
    out.add(413)
    out.add(415)
  }
  return [...out].sort()
}

/** Headers every answer, or some, carry; declared once under components.headers. */
const HEADERS: Record<string, { description: string; schema: Record<string, unknown> }> = {
  'X-Request-Id': { description: 'The request id (yours when you sent a valid X-Request-Id); quote it when reporting a problem.', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests allowed in the current window of the tightest limit.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in that window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until that window resets.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  'Idempotent-Replayed': {
    description: 'true when this is the stored answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  'X-Markdown-Tokens': { description: 'Token count of the markdown (o200k_base).', schema: { type: 'integer' } },
  Precognition: { description: 'true on every answer to a Precognition request.', schema: { type: 'string', enum: ['true'] } },
  'Precognition-Success': { description: 'true when the dry run passed every check.', schema: { type: 'string', enum: ['true'] } },
  'WWW-Authenticate': { description: 'Bearer challenge.', schema: { type: 'string' } },
}
const headerRefs = (...names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]))
const rateLimitHeaders = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']

function successHeaders(row: RouteRow) {
  return headerRefs(
    'X-Request-Id',
    ...rateLimitHeaders,
    ...(isWrite(row.method) && row.scope !== 'public' ? ['Idempotent-Replayed'] : []),
    ...(row.raw && row.operationId.toLowerCase().includes('markdown') ? ['X-Markdown-Tokens'] : []),
  )
}

function parameters(schema: TSchema | undefined, where: 'path' | 'query') {
  if (!schema) return []
  const obj = schema as TObject
  const required = new Set(obj.required ?? [])
  return Object.entries(obj.properties ?? {}).map(([name, prop]) => {
    const p = clone(prop)
    const description = p.description
    delete p.description
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: p,
    }
  })
}

const writeHeaders = [
  {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: 'Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422.',
    schema: { type: 'string', maxLength: 128 },
  },
  {
    name: 'Precognition',
    in: 'header',
    required: false,
    description: 'true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored.',
    schema: { type: 'string', enum: ['true'] },
  },
]

/** OpenAPI 3.1, generated from the same route rows and TypeBox schemas that validate requests. */
/** The document, with the core's next steps named as the API's routes (kernel/next-step.ts). */
export const buildOpenApi = (config: Config, modules: RouteModule[]) => renderNextStepsIn(openApiDocument(config, modules), restNextSteps)

/** One operation of the document: its responses, parameters and body, as the route row declares them. */
function operationOf(config: Config, tag: string, row: RouteModule['rows'][number], path: string, doc: (schema: unknown) => unknown, usedErrors: Set<number>) {
  const status = successStatus(row)
  const successSchema = row.reply[status]
  const responses: Record<string, unknown> = {}
  const contentType =
    row.raw && row.rawType ? row.rawType : row.raw && row.operationId.toLowerCase().includes('markdown') ? 'text/markdown' : 'application/json'
  responses[String(status)] = successSchema
    ? { description: 'Success.', headers: successHeaders(row), content: { [contentType]: { schema: doc(successSchema) } } }
    : { description: 'Success, no body.' }
  if (isWrite(row.method) && status !== 204 && row.scope !== 'public') {
    responses['204'] = {
      description: 'Dry run (Precognition: true) passed every check; nothing was stored.',
      headers: headerRefs('X-Request-Id', 'Precognition', 'Precognition-Success', ...rateLimitHeaders),
    }
  }
  for (const code of errorsFor(row, path)) {
    usedErrors.add(code)
    responses[String(code)] = { $ref: `#/components/responses/E${code}` }
  }
  const op: Record<string, unknown> = {
    operationId: row.operationId,
    summary: row.summary,
    description: row.description ?? `${row.summary}.`,
    tags: [tag],
    security: row.scope === 'public' ? [] : [{ bearerAuth: [] }, { oauth2: [row.scope] }],
    ...(row.scope !== 'public' ? { 'x-required-ability': row.scope } : {}),
    parameters: [...parameters(row.params, 'path'), ...parameters(row.query, 'query'), ...(isWrite(row.method) && row.scope !== 'public' ? writeHeaders : [])],
    responses,
  }
  if (row.body || row.multipart) {
    const content: Record<string, unknown> = {}
    if (row.body) content['application/json'] = { schema: doc(row.body) }
    if (row.multipart) {
      content['multipart/form-data'] = {
        schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] },
      }
    }
    // A body whose schema requires nothing may be left out (PATCH bodies, DELETE's optional {ids}).
    const bodyRequired = !!(row.body as TObject | undefined)?.required?.length
    op.requestBody = { required: !row.multipart && row.method !== 'PATCH' && bodyRequired, content }
  }
  if (row.requestContent) {
    const content = Object.fromEntries(Object.entries(row.requestContent).map(([type, c]) => [type, { ...c, schema: doc(c.schema) }]))
    op.requestBody = { required: true, content }
  }
  if (row.externalDocs) op.externalDocs = { ...row.externalDocs, url: row.externalDocs.url.replace('{public_base}', config.publicUrl) }
  if (!(op.parameters as unknown[]).length) delete op.parameters
  return op
}

/** The error answers the operations name, each with an example of its envelope. */
function errorResponses(config: Config, usedErrors: Set<number>): Record<string, unknown> {
  const responses: Record<string, unknown> = {}
  for (const [code, description] of Object.entries(errorStatuses)) {
    if (!usedErrors.has(Number(code))) continue
    const name = exampleCode[Number(code)] as keyof typeof errorTable
    responses[`E${code}`] = {
      description,
      headers: headerRefs('X-Request-Id', ...(code === '401' ? ['WWW-Authenticate'] : []), ...(code === '429' ? ['Retry-After', ...rateLimitHeaders] : [])),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          example: {
            message: errorTable[name].message,
            code: name,
            errors: code === '422' ? { 'data.link': ['This field is required.'] } : null,
            documentation: `${config.publicUrl}/v1/docs#error-${name}`,
          },
        },
      },
    }
  }
  return responses
}

/** How a caller authenticates: a personal or OAuth access token as a bearer token, or OAuth 2.1 itself. */
function securitySchemes(config: Config) {
  return {
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'slp_ (personal) or slo_ (OAuth access), followed by 40 base62 characters',
      description: `A personal access token from ${config.publicUrl}/settings/tokens, or an OAuth access token.`,
    },
    oauth2: {
      type: 'oauth2',
      description: `OAuth 2.1 with PKCE (S256) and dynamic client registration at ${config.publicUrl}/oauth/register; metadata at ${config.publicUrl}/.well-known/oauth-authorization-server.`,
      flows: {
        authorizationCode: {
          authorizationUrl: `${config.publicUrl}/oauth/authorize`,
          tokenUrl: `${config.publicUrl}/oauth/token`,
          refreshUrl: `${config.publicUrl}/oauth/token`,
          scopes: Object.fromEntries(ABILITY_GRANTS.map((a) => [a.name, a.grants])),
        },
      },
    },
  }
}

function openApiDocument(config: Config, modules: RouteModule[]) {
  const named = namedSchemas()
  const doc = (schema: unknown) => documented(schema, named)
  const paths: Record<string, Record<string, unknown>> = {}
  const usedErrors = new Set<number>()
  for (const mod of modules) {
    for (const row of mod.rows) {
      const full = (mod.prefix + row.url).replace(/:(\w+)/g, '{$1}')
      if (!full.startsWith('/v1')) continue
      const path = full.slice(3) || '/'
      const op = operationOf(config, mod.tag, row, path, doc, usedErrors)
      paths[path] ??= {}
      paths[path][row.method.toLowerCase()] = op
    }
  }

  const responses = errorResponses(config, usedErrors)

  return {
    openapi: '3.1.0',
    info: {
      title: 'Slotline API',
      version: '1.0.0',
      summary: 'Read and edit link-in-bio pages (profiles) and their blocks (slots).',
      description: 'A strict JSON API for public link pages. Start with GET /me. Every write accepts Precognition: true (validate only) and Idempotency-Key.',
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'Slotline API reference', url: `${config.publicUrl}/v1/docs` },
    },
    servers: [{ url: `${config.publicUrl}/v1` }],
    tags: modules.map((m) => ({ name: m.tag, description: m.description })),
    paths,
    webhooks: webhooksSection(doc),
    components: {
      securitySchemes: securitySchemes(config),
      schemas: {
        ...Object.fromEntries([...named].map(([schema, name]) => [name, documented(schema, named, schema)])),
        ...slotDataComponents(named),
      },
      responses,
      headers: HEADERS,
    },
  }
}
