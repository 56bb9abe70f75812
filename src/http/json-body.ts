import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { AppError, invalidField } from '../kernel/errors.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** SHA-256 (hex) of the body bytes exactly as received, for parsed bodies. */
    bodyDigest?: string
  }
}

/**
 * How deep a JSON body may nest. The deepest thing the API takes (a gallery item in a batch of
 * slots) is 5 levels down; the limit keeps every later walk (validation, JSON.stringify,
 * copies) far from the stack's end.
 */
export const MAX_JSON_DEPTH = 32

/** The largest body the API reads (the zip parser sets its own). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024

interface Pending {
  value: unknown
  depth: number
  key: string
  parent: Pending | undefined
}

const pathOf = (node: Pending) => {
  const keys: string[] = []
  for (let n: Pending | undefined = node; n?.parent; n = n.parent) keys.push(n.key)
  return keys.reverse().join('.')
}

/**
 * The field path of the first value nested deeper than `max` levels, or undefined. An explicit
 * stack, not recursion: this walk is the one that must never overflow.
 */
export function tooDeepAt(value: unknown, max = MAX_JSON_DEPTH): string | undefined {
  const stack: Pending[] = [{ value, depth: 0, key: '', parent: undefined }]
  while (stack.length) {
    const node = stack.pop()!
    if (node.value === null || typeof node.value !== 'object') continue
    if (node.depth >= max) return pathOf(node)
    for (const [key, child] of Object.entries(node.value)) stack.push({ value: child, depth: node.depth + 1, key, parent: node })
  }
  return undefined
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * JSON as the API takes it: UTF-8 required (RFC 8259), bad JSON a 400, and nesting past
 * MAX_JSON_DEPTH a 422 naming the field before anything walks it. V8's JSON.parse itself is
 * iterative, so parsing a deep value is safe; using one is not. `what` names the input in the
 * messages. An empty text is undefined.
 */
export function readJson(bytes: Uint8Array, what = 'The body'): unknown {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    throw new AppError('malformed_request', { message: `${what} is not valid UTF-8; send JSON encoded as UTF-8.` })
  }
  if (text.trim() === '') return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new AppError('malformed_request', { message: `${what} is not valid JSON: ${(err as Error).message}` })
  }
  const deep = tooDeepAt(value)
  if (deep !== undefined) throw invalidField(deep || '(body)', `Nested more than ${MAX_JSON_DEPTH} levels deep; no field of this API nests that far.`)
  return value
}

/**
 * `application/json` for every route: bytes hashed as received (idempotency compares those), an
 * empty body counts as omitted (PATCH bodies are optional), otherwise readJson's rules.
 */
export function installJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer
    req.bodyDigest = createHash('sha256').update(bytes).digest('hex')
    let value: unknown
    try {
      value = readJson(bytes)
    } catch (err) {
      return done(err as Error, undefined)
    }
    done(null, value)
  })
}
