import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { AppError, invalidField } from '../kernel/errors.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** SHA-256 (hex) of the body bytes exactly as received, for parsed bodies. */
    bodyDigest?: string
    /** The body's size in bytes as received, for parsed bodies. */
    bodyBytes?: number
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
    // Only objects can nest further: a body of many plain values costs no step each.
    for (const key in node.value) {
      if (!Object.hasOwn(node.value, key)) continue
      const child = (node.value as Record<string, unknown>)[key]
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: node.depth + 1, key, parent: node })
    }
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
 * Whether a JSON text holds more than `max` object members, counted as the colons outside
 * strings, in one pass over the bytes: parsing an object of hundreds of thousands of keys costs
 * far more than reading its bytes, so such a body is refused before it is parsed.
 */
export function holdsMoreFieldsThan(bytes: Uint8Array, max: number): boolean {
  let inString = false
  let count = 0
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]
    if (inString) {
      if (b === 0x5c) i++
      else if (b === 0x22) inString = false
    } else if (b === 0x22) inString = true
    else if (b === 0x3a && ++count > max) return true
  }
  return false
}

export interface JsonBodyOptions {
  /** Refuse, before parsing, a body with more object members than this in all (413). */
  maxFields?: number
}

/**
 * `application/json` for every route: bytes hashed as received (idempotency compares those), an
 * empty body counts as omitted (PATCH bodies are optional), otherwise readJson's rules.
 */
export function installJsonBody(app: FastifyInstance, options: JsonBodyOptions = {}): void {
  const { maxFields } = options
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer
    if (maxFields !== undefined && holdsMoreFieldsThan(bytes, maxFields)) {
      return done(
        new AppError('payload_too_large', { message: `The body holds more than ${maxFields} fields in all; no request here needs that many.` }),
        undefined,
      )
    }
    req.bodyDigest = createHash('sha256').update(bytes).digest('hex')
    req.bodyBytes = bytes.length
    let value: unknown
    try {
      value = readJson(bytes)
    } catch (err) {
      return done(err as Error, undefined)
    }
    done(null, value)
  })
}
