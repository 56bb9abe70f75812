import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream'
import { promisify } from 'node:util'
import { brotliCompress, brotliCompressSync, constants, createBrotliCompress, createGzip, gzip, gzipSync } from 'node:zlib'
import type { FastifyInstance, FastifyReply } from 'fastify'

export type Encoding = 'br' | 'gzip'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Smaller answers go as they are: a coding saves less than its own overhead. */
const THRESHOLD = 1024
/** Bodies up to this size are compressed at once, on the event loop (brotli 4: well under a millisecond); larger ones in zlib's threads. */
const ON_THE_LOOP = 64 * 1024
/** Text (not event streams, which must flush as they go), JSON and XML, whatever the suffix. */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/](?:json|xml)(?:;|$)/i
/** Brotli at 4 for answers compressed on every request: near gzip's speed, smaller. */
const BROTLI_DYNAMIC = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }

const compressNow = { br: (b: Buffer) => brotliCompressSync(b, BROTLI_DYNAMIC), gzip: (b: Buffer) => gzipSync(b) }
const compressLater = { br: (b: Buffer) => brotli(b, BROTLI_DYNAMIC), gzip: (b: Buffer) => gzipAsync(b) }
const compressStream = { br: () => createBrotliCompress(BROTLI_DYNAMIC), gzip: () => createGzip() }

/** Bytes of a buffered body, without measuring a string that is small at three bytes a character. */
const sizeOf = (payload: string | Buffer) =>
  typeof payload !== 'string' ? payload.length : payload.length * 3 < THRESHOLD ? payload.length : Buffer.byteLength(payload)

/** The coding to send `payload` in, or none: small, not compressible, already coded, partial, or not accepted. */
function codingFor(reply: FastifyReply, payload: unknown): Encoding | undefined {
  const buffered = typeof payload === 'string' || Buffer.isBuffer(payload)
  // Most answers (errors, health, small JSON) stop at this first test.
  if (buffered ? sizeOf(payload) < THRESHOLD : typeof (payload as Readable | null)?.pipe !== 'function') return undefined
  const coded = reply.getHeader('content-encoding')
  if ((coded !== undefined && coded !== 'identity') || reply.statusCode === 206 || reply.hasHeader('content-range')) return undefined
  if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? 'application/json'))) return undefined
  return preferredEncoding(reply.request.headers['accept-encoding'])
}

function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary')
  if (vary === undefined) reply.header('vary', 'accept-encoding')
  else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${vary}, accept-encoding`)
}

/**
 * Compression of every compressible answer (HTML, markdown, JSON, CSS, JavaScript) above 1 KB,
 * brotli first, at quality 4: dynamic answers are compressed on every request. Answers that are
 * the same for many requests (cached pages, the docs bundle) are compressed once, harder, with
 * `encodeOnce`, and carry their own Content-Encoding, which this leaves alone. Request bodies
 * are not decompressed: a small gzip body can inflate without bound.
 *
 * One onSend hook, in place of @fastify/compress: that plugin added an onRequest hook to every
 * route (for a `reply.compress` we never call) and tested headers and types before size, a
 * cost paid by every answer (docs/decisions/compression-hook.md; bench/hooks.ts measures it);
 * here an answer under the threshold costs one length test.
 */
export function installCompression(app: FastifyInstance): void {
  app.addHook('onSend', (_req, reply, payload, done) => {
    const coding = codingFor(reply, payload)
    if (!coding) return done(null, payload)
    varyOnEncoding(reply)
    reply.header('content-encoding', coding)
    // Fastify sets the length of a buffered body itself, from the coded one; a stream goes chunked.
    reply.removeHeader('content-length')
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload)
      if (body.length <= ON_THE_LOOP) return done(null, compressNow[coding](body))
      compressLater[coding](body).then((coded) => done(null, coded), done)
      return
    }
    const coded = compressStream[coding]()
    pipeline(payload as Readable, coded, (err) => {
      // A client that goes away mid-answer is no error of ours.
      if (err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') reply.log.error({ err }, 'compressing an answer failed')
    })
    done(null, coded)
  })
}

/**
 * Both encodings of a body that is served many times, compressed off the event loop at a
 * quality worth spending once (brotli 9: within a few per cent of 11 at a tenth of the time).
 */
export async function encodeOnce(body: Buffer): Promise<Record<Encoding, Buffer>> {
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipAsync(body, { level: 9 }),
  ])
  return { br, gzip: gz }
}

const chosen = new Map<string, Encoding | undefined>()

/**
 * The encoding to answer with for an Accept-Encoding header (RFC 9110 §12.5.3): brotli when
 * acceptable, else gzip, else none. `*` accepts both; `q=0` refuses. Browsers send a handful of
 * distinct headers, so answers are remembered (bounded) and the hot path parses nothing.
 */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined
  if (chosen.has(acceptEncoding)) return chosen.get(acceptEncoding)
  const q: Record<string, number> = {}
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';')
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const value = qParam ? Number(qParam.slice(2)) : 1
    q[coding.trim()] = Number.isFinite(value) ? value : 0
  }
  const quality = (coding: Encoding) => q[coding] ?? q['*'] ?? 0
  const encoding = quality('br') > 0 && quality('br') >= quality('gzip') ? 'br' : quality('gzip') > 0 ? 'gzip' : undefined
  if (chosen.size >= 256) chosen.clear()
  chosen.set(acceptEncoding, encoding)
  return encoding
}

/**
 * A fixed body (a docs asset, the docs page) served in the encoding each request accepts; the
 * compressed bodies are made on first demand and kept.
 */
export function servedEncoded(body: Buffer): (acceptEncoding: string | undefined) => Promise<{ body: Buffer; encoding?: Encoding }> {
  let encoded: Promise<Record<Encoding, Buffer>> | undefined
  return async (acceptEncoding) => {
    const encoding = preferredEncoding(acceptEncoding)
    if (!encoding) return { body }
    encoded ??= encodeOnce(body)
    return { body: (await encoded)[encoding], encoding }
  }
}
