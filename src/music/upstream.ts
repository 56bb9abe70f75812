import { setTimeout as sleep } from 'node:timers/promises'
import type { request as Request } from 'undici'

/** One call may take 5 s and a whole lookup 10 s, so a lookup answers (maybe 503) but never hangs. */
export const CALL_TIMEOUT_MS = 5_000
export const LOOKUP_TIMEOUT_MS = 10_000
const RETRY_BACKOFF_MS = 300
// Retry-After above this is not worth waiting for inside one lookup.
const MAX_RETRY_WAIT_MS = 2_000
// Every answer we read is a few kilobytes of JSON; anything far bigger is not what we asked for.
const MAX_BODY_BYTES = 2 * 1024 * 1024

export type UpstreamName = 'deezer' | 'itunes' | 'odesli'

/** An upstream that is down, timed out, rate limited or answered nonsense: worth a 503, not a 404. */
export class UpstreamFailure extends Error {
  constructor(
    readonly upstream: UpstreamName,
    problem: string,
    options: { cause?: unknown } = {},
  ) {
    super(`${upstream}: ${problem}`, options)
  }
}

export interface UpstreamResponse {
  status: number
  body: unknown
}

export interface GetJsonOptions {
  /** The whole lookup's deadline; each attempt also has its own CALL_TIMEOUT_MS. */
  deadline: AbortSignal
  /** A 200 that still means "try again" (Deezer reports its quota inside a 200 body). */
  isRetryable?: (res: UpstreamResponse) => boolean
}

const isServerTrouble = (status: number) => status === 429 || status >= 500

async function readBody(upstream: UpstreamName, body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) {
      body.destroy()
      throw new UpstreamFailure(upstream, `answered more than ${MAX_BODY_BYTES} bytes`)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

async function attempt(upstream: UpstreamName, url: string, deadline: AbortSignal): Promise<UpstreamResponse & { retryAfterMs?: number }> {
  const signal = AbortSignal.any([deadline, AbortSignal.timeout(CALL_TIMEOUT_MS)])
  let res: Awaited<ReturnType<typeof Request>>
  try {
    // undici loads with the first lookup, not at start (idle memory).
    const { request } = await import('undici')
    res = await request(url, {
      method: 'GET',
      signal,
      headers: { accept: 'application/json', 'user-agent': 'Slotline music lookup (+https://github.com/slotline)' },
    })
  } catch (err) {
    throw new UpstreamFailure(upstream, signal.aborted ? 'timed out' : `unreachable (${(err as Error).message})`, { cause: err })
  }
  let text: string
  try {
    text = await readBody(upstream, res.body)
  } catch (err) {
    if (err instanceof UpstreamFailure) throw err
    throw new UpstreamFailure(upstream, signal.aborted ? 'timed out while answering' : 'broke off its answer', { cause: err })
  }
  const retryAfter = Number(res.headers['retry-after'])
  const retryAfterMs = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : undefined
  if (isServerTrouble(res.statusCode)) return { status: res.statusCode, body: text, retryAfterMs }
  let body: unknown
  try {
    body = text === '' ? null : JSON.parse(text)
  } catch (err) {
    // A 4xx page in HTML is still an answer ("not here"); a 2xx must be JSON.
    if (res.statusCode < 300) throw new UpstreamFailure(upstream, `answered ${res.statusCode} with a body that is not JSON`, { cause: err })
    body = text
  }
  return { status: res.statusCode, body }
}

/**
 * GET a JSON document from an upstream. 429 and 5xx (and what `isRetryable` names) are retried
 * once after a short backoff; a second failure, a timeout or an unreachable host throws
 * UpstreamFailure. Any other status comes back for the provider to read (4xx usually means "unknown").
 */
export async function getJson(upstream: UpstreamName, url: string, options: GetJsonOptions): Promise<UpstreamResponse> {
  const retryable = (r: UpstreamResponse) => isServerTrouble(r.status) || (options.isRetryable?.(r) ?? false)
  const first = await attempt(upstream, url, options.deadline)
  if (!retryable(first)) return first
  const wait = Math.min(first.retryAfterMs ?? RETRY_BACKOFF_MS, MAX_RETRY_WAIT_MS)
  try {
    await sleep(wait, undefined, { signal: options.deadline })
  } catch (err) {
    throw new UpstreamFailure(upstream, `answered ${first.status} and the lookup ran out of time`, { cause: err })
  }
  const second = await attempt(upstream, url, options.deadline)
  if (!retryable(second)) return second
  throw new UpstreamFailure(upstream, `answered ${second.status} twice`)
}
