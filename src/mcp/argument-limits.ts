import { ARCHIVE_LIMITS } from '../transfer/page-archive.ts'
import { MAX_OBJECT_KEYS } from '../kernel/validation.ts'

/** What one tool call's arguments may weigh: more than any tool reads, far less than costs us. */
export const ARGUMENT_LIMITS = Object.freeze({
  /** Keys in all the arguments' objects together (a full page document holds a few thousand). */
  totalKeys: 20_000,
  /** Keys in one object, as every body of the service (core/validation.ts). */
  keysPerObject: MAX_OBJECT_KEYS,
  /**
   * Bytes of JSON for any tool, import_page's document included. Validating arguments holds the
   * event loop (the SDK's message schema, then ours) in proportion to their size; a page document of
   * up to ARCHIVE_LIMITS.maxDocumentBytes goes to POST /v1/profiles/import, which reads it in
   * one pass.
   */
  bytes: 1024 * 1024,
})

/**
 * The /mcp body limit: an archive's whole page.json and the JSON-RPC envelope around it. Past
 * ARGUMENT_LIMITS.bytes such a call is answered with a tool result that says where to send it
 * (refuseOversizedCall) once the body is parsed, before any schema walks it; past this limit,
 * with 413 before it is read.
 */
export const MCP_BODY_LIMIT = ARCHIVE_LIMITS.maxDocumentBytes + 128 * 1024

/**
 * Why these arguments are refused before any validation walks them, or undefined. The body's
 * fields were counted before it was parsed (the /mcp JSON parser refuses more than
 * `totalKeys`); this walk stops at the first object past its own limit, so validation (the
 * SDK's message schema, then ours, reporting every key) never meets such an object. `bodyBytes`
 * is the whole request's size, an upper bound on the arguments' own.
 */
export function oversizedArguments(args: unknown, bodyBytes: number, maxBytes: number): string | undefined {
  if (bodyBytes > maxBytes) return `Are part of a request of ${bodyBytes} bytes; this tool takes at most ${maxBytes} bytes of arguments.`
  let total = 0
  const stack: unknown[] = [args]
  while (stack.length) {
    const value = stack.pop()
    if (typeof value !== 'object' || value === null) continue
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item)
      continue
    }
    let own = 0
    for (const key in value) {
      if (++own > ARGUMENT_LIMITS.keysPerObject)
        return `Hold an object with more than ${ARGUMENT_LIMITS.keysPerObject} fields; no argument of any tool has that many.`
      if (++total > ARGUMENT_LIMITS.totalKeys) return `Hold more than ${ARGUMENT_LIMITS.totalKeys} fields in all; no call of any tool needs that many.`
      const child = (value as Record<string, unknown>)[key]
      if (typeof child === 'object' && child !== null) stack.push(child)
    }
  }
  return undefined
}
