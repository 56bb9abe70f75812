import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import compress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'

export type Encoding = 'br' | 'gzip'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Compression of every compressible answer (HTML, markdown, JSON, CSS, JavaScript) above 1 KB,
 * brotli first, at the plugin's quality 4: dynamic answers are compressed on every request.
 * Answers that are the same for many requests (cached pages, the docs bundle) are compressed
 * once, harder, with `encodeOnce`, and carry their own Content-Encoding, which the plugin leaves
 * alone. Request bodies are not decompressed: a small gzip body can inflate without bound.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024, globalDecompression: false })
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
