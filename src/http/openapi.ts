import type { TObject, TSchema } from '@sinclair/typebox'
import type { Config } from '../config.ts'
import { errorTable } from './errors.ts'
import { successStatus } from './register-routes.ts'
import { ErrorEnvelope } from './schemas.ts'
import { isWrite, type RouteModule, type RouteRow } from './routes.ts'

const clone = (s: unknown) => JSON.parse(JSON.stringify(s))

const errorStatuses: Record<number, string> = {
  400: 'The request could not be parsed.',
  401: 'Missing, invalid or revoked token.',
  403: 'The token lacks the ability this operation needs.',
  404: 'Not found (pages of other accounts included).',
  409: 'A business rule is violated: a count limit is reached, or a read-only resource.',
  413: 'The request body is too large.',
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
  422: 'validation_failed',
  429: 'rate_limited',
  502: 'upstream_unavailable',
  503: 'upstream_unavailable',
}

/** The error statuses an operation can answer, from the row's shape plus its own list. */
function errorsFor(row: RouteRow, url: string): number[] {
  const out = new Set<number>(row.errors ?? [])
  if (row.scope !== 'public') {
    out.add(401)
    out.add(429)
  }
  if (isWrite(row.method) && row.scope !== 'public') out.add(403)
  if (url.includes('{profileKey}') || url.includes('{slot}') || url.includes('{type}')) out.add(404)
  if (row.body || row.query || isWrite(row.method)) out.add(422)
  if (row.body) out.add(400)
  return [...out].sort()
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
export function buildOpenApi(config: Config, modules: RouteModule[]) {
  const paths: Record<string, Record<string, unknown>> = {}
  const usedErrors = new Set<number>()
  for (const mod of modules) {
    for (const row of mod.rows) {
      const full = (mod.prefix + row.url).replace(/:(\w+)/g, '{$1}')
      if (!full.startsWith('/v1')) continue
      const path = full.slice(3) || '/'
      const status = successStatus(row)
      const successSchema = row.reply[status]
      const responses: Record<string, unknown> = {}
      const contentType = row.raw && row.operationId.toLowerCase().includes('markdown') ? 'text/markdown' : 'application/json'
      responses[String(status)] = successSchema
        ? { description: 'Success.', content: { [contentType]: { schema: clone(successSchema) } } }
        : { description: 'Success, no body.' }
      if (isWrite(row.method) && status !== 204 && row.scope !== 'public') {
        responses['204'] = { description: 'Dry run (Precognition: true) passed every check; nothing was stored.' }
      }
      for (const code of errorsFor(row, path)) {
        usedErrors.add(code)
        responses[String(code)] = { $ref: `#/components/responses/E${code}` }
      }
      const op: Record<string, unknown> = {
        operationId: row.operationId,
        summary: row.summary,
        ...(row.description ? { description: row.description } : {}),
        tags: [mod.tag],
        security: row.scope === 'public' ? [] : [{ bearerAuth: [] }],
        ...(row.scope !== 'public' ? { 'x-required-ability': row.scope } : {}),
        parameters: [
          ...parameters(row.params, 'path'),
          ...parameters(row.query, 'query'),
          ...(isWrite(row.method) && row.scope !== 'public' ? writeHeaders : []),
        ],
        responses,
      }
      if (row.body || row.multipart) {
        const content: Record<string, unknown> = {}
        if (row.body) content['application/json'] = { schema: clone(row.body) }
        if (row.multipart) {
          content['multipart/form-data'] = {
            schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] },
          }
        }
        // A body whose schema requires nothing may be left out (PATCH bodies, DELETE's optional {ids}).
        const bodyRequired = !!(row.body as TObject | undefined)?.required?.length
        op.requestBody = { required: !row.multipart && row.method !== 'PATCH' && bodyRequired, content }
      }
      if (!(op.parameters as unknown[]).length) delete op.parameters
      paths[path] ??= {}
      paths[path][row.method.toLowerCase()] = op
    }
  }

  const responses: Record<string, unknown> = {}
  for (const [code, description] of Object.entries(errorStatuses)) {
    if (!usedErrors.has(Number(code))) continue
    const name = exampleCode[Number(code)] as keyof typeof errorTable
    responses[`E${code}`] = {
      description,
      ...(code === '401' ? { headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer challenge.' } } } : {}),
      ...(code === '429'
        ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before retrying.' } } }
        : {}),
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

  return {
    openapi: '3.1.0',
    info: {
      title: 'Slotline API',
      version: '1.0.0',
      summary: 'Read and edit link-in-bio pages (profiles) and their blocks (slots).',
      description:
        'A strict JSON API for public link pages. Start with GET /me. Every write accepts Precognition: true (validate only) and Idempotency-Key.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: `${config.publicUrl}/v1` }],
    tags: modules.map((m) => ({ name: m.tag, description: m.description })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'slp_ followed by 40 base62 characters',
          description: 'A personal access token from the dashboard settings, or an OAuth access token.',
        },
      },
      schemas: { Error: clone(ErrorEnvelope) },
      responses,
    },
  }
}
