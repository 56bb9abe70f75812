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
 * `application/json` for every route: bytes hashed as received (idempotency compares those),
 * UTF-8 required (RFC 8259), an empty body counts as omitted (PATCH bodies are optional), bad
 * JSON is a 400, and nesting past MAX_JSON_DEPTH a 422 naming the field before anything walks it.
 * V8's JSON.parse itself is iterative, so parsing a deep body is safe; using one is not.
 */
export function installJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer
    req.bodyDigest = createHash('sha256').update(bytes).digest('hex')
    let text: string
    try {
      text = utf8.decode(bytes)
    } catch {
      return done(new AppError('malformed_request', { message: 'The body is not valid UTF-8; send JSON encoded as UTF-8.' }), undefined)
    }
    if (text.trim() === '') return done(null, undefined)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (err) {
      return done(new AppError('malformed_request', { message: `The body is not valid JSON: ${(err as Error).message}` }), undefined)
    }
    const deep = tooDeepAt(value)
    if (deep !== undefined) {
      return done(invalidField(deep || '(body)', `Nested more than ${MAX_JSON_DEPTH} levels deep; no field of this API nests that far.`), undefined)
    }
    done(null, value)
  })
}
