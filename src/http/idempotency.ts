import type { FastifyReply, FastifyRequest } from 'fastify'
import { sha256 } from '../auth/secrets.ts'
import type { AppContext } from '../context.ts'
import { checkIdempotencyKey, claimIdempotencyKey } from '../core/use-cases.ts'

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { userId: number; key: string; replayed: boolean }
  }
}

const isMultipart = (req: FastifyRequest) =>
  String(req.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('multipart/')

/** Identifies "the same request": method, path with query, and the SHA-256 of the body's exact bytes. */
const fingerprint = (req: FastifyRequest, bodyDigest: string | undefined) => sha256(`${req.method} ${req.url}\n${bodyDigest ?? ''}`)

const pendingClaims = new WeakMap<FastifyRequest, { userId: number; key: string }>()

/**
 * Stripe's semantics: the first response to a key is kept for 24 h; a repeat of the same request
 * gets it again (Idempotent-Replayed: true) and writes nothing; the key on a different request is
 * 422 idempotency_mismatch. A repeat arriving while the first is still running waits for its
 * result (up to 10 s, then 409 idempotency_in_progress). Returns true when the reply was sent.
 * A multipart body is streamed by its handler, after this point: the handler claims the key with
 * `claimAfterBody` once it has read the body whole and before it stores anything.
 */
export async function beginIdempotent(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, userId: number): Promise<boolean> {
  const header = req.headers['idempotency-key']
  if (header === undefined) return false
  const key = Array.isArray(header) ? header[0] : header
  checkIdempotencyKey(key, 'Idempotency-Key')
  if (isMultipart(req)) {
    pendingClaims.set(req, { userId, key })
    return false
  }
  return claim(ctx, req, reply, userId, key, fingerprint(req, req.bodyDigest))
}

/**
 * For a streamed (multipart) body, once read whole: claims the key with `contentDigest`, the
 * hash its reader computed of every part (names, file names, types and exact bytes) as they
 * streamed. False when the request was answered from the key's record (a replay): store nothing.
 */
export async function claimAfterBody(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, contentDigest: string): Promise<boolean> {
  const pending = pendingClaims.get(req)
  if (!pending) return true
  pendingClaims.delete(req)
  return !(await claim(ctx, req, reply, pending.userId, pending.key, fingerprint(req, `multipart:${contentDigest}`)))
}

async function claim(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, userId: number, key: string, print: string): Promise<boolean> {
  const claimed = await claimIdempotencyKey(ctx, userId, key, print)
  if (claimed.kind === 'claimed') {
    req.idempotency = { userId, key, replayed: false }
    return false
  }
  req.idempotency = { userId, key, replayed: true }
  reply.code(claimed.response.status).header('Idempotent-Replayed', 'true')
  if (claimed.response.contentType) reply.header('content-type', claimed.response.contentType)
  await reply.send(claimed.response.payload || undefined)
  return true
}

/** Keeps the response of a claimed key, or frees the key when the outcome should not stick. */
export async function finishIdempotent(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
  const idem = req.idempotency
  if (!idem || idem.replayed) return
  req.idempotency = undefined
  const status = reply.statusCode
  // Server faults, throttling and validation failures are not kept, as Stripe does: the client
  // may retry the same key once the cause is fixed.
  const keep = status < 500 && status !== 429 && status !== 422 && status !== 409
  if (!keep) return ctx.idempotency.release(idem.userId, idem.key)
  const contentType = reply.getHeader('content-type')
  await ctx.idempotency.complete(idem.userId, idem.key, {
    status,
    contentType: contentType === undefined ? null : String(contentType),
    payload: typeof payload === 'string' ? payload : payload === undefined || payload === null ? '' : String(payload),
  })
}
