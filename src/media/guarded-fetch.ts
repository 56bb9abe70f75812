import { lookup } from 'node:dns/promises'
import { createWriteStream } from 'node:fs'
import { connect as netConnect, isIP, type Socket } from 'node:net'
import { pipeline } from 'node:stream/promises'
import { connect as tlsConnect } from 'node:tls'
import type { Client } from 'undici'
import { isPublicAddress } from './ip-policy.ts'
import { ByteLimit } from './byte-limit.ts'

/** "larger than 10 MB", or in KiB for the small limits of metadata documents. */
const tooLarge = (max: number) =>
  `The download is larger than ${max >= 1024 * 1024 ? `${+(max / 1024 / 1024).toFixed(1)} MB` : `${Math.round(max / 1024)} KiB`}.`

/** Why a URL was not downloaded; the message is meant for the API caller. */
export class UrlRefused extends Error {}

export interface ResolvedAddress {
  address: string
  family: number
}

/** Name → addresses. The default asks the system resolver; tests pass a fixed table. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export interface ConnectTarget {
  /** The address that passed the checks: the socket must go there and nowhere else. */
  address: string
  port: number
  tls: boolean
  /** TLS server name (SNI and certificate check): the URL's host name, absent for IP literals. */
  servername: string | undefined
  signal: AbortSignal
}

/** Opens a connected socket (TLS already negotiated when `tls`) to exactly `target.address`. */
export type Connector = (target: ConnectTarget) => Promise<Socket>

export interface GuardedFetchOptions {
  resolve: Resolver
  connect: Connector
  /** `host:port` pairs exempt from the private-network and default-port rules (tests only). */
  allowHostPorts: readonly string[]
  maxBytes: number
  /** For the whole download: name resolution, every redirect and the body. */
  timeoutMs: number
  maxRedirects: number
  /** File the body is streamed into. */
  destination: string
  /** The Accept header (default: the image types upload-by-URL takes). */
  accept?: string
}

/** What every guarded request needs: the way out, its exemptions and a time limit. */
type NetworkOptions = Pick<GuardedFetchOptions, 'resolve' | 'connect' | 'allowHostPorts' | 'timeoutMs'>

export const systemResolver: Resolver = async (hostname) => lookup(hostname, { all: true, verbatim: true })

export const directConnector: Connector = (target) =>
  new Promise((resolve, reject) => {
    const socket = target.tls
      ? tlsConnect({ host: target.address, port: target.port, servername: target.servername, ALPNProtocols: ['http/1.1'] })
      : netConnect({ host: target.address, port: target.port })
    const fail = (err: Error) => {
      socket.destroy()
      reject(err)
    }
    const onAbort = () => fail(new Error('aborted'))
    target.signal.addEventListener('abort', onAbort, { once: true })
    socket.once('error', fail)
    socket.once(target.tls ? 'secureConnect' : 'connect', () => {
      target.signal.removeEventListener('abort', onAbort)
      socket.off('error', fail)
      resolve(socket)
    })
  })

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 }
const REDIRECTS = new Set([301, 302, 303, 307, 308])

interface Hop {
  url: URL
  address: string
  port: number
}

/**
 * Checks one URL against the rules and pins the address to connect to. The host is taken from
 * the WHATWG-parsed URL, which has already turned 2130706433, 0177.0.0.1 and 0x7f.1 into
 * 127.0.0.1, so every spelling of an address meets the same check.
 */
async function checkHop(url: URL, options: NetworkOptions, signal: AbortSignal): Promise<Hop> {
  if (!(url.protocol in DEFAULT_PORTS)) throw new UrlRefused(`Only http and https URLs can be downloaded, not ${url.protocol}`)
  if (url.username || url.password) throw new UrlRefused('The URL must not carry a user name or password.')
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol]
  const exempt = options.allowHostPorts.includes(`${url.hostname}:${port}`)
  if (url.port && !exempt) throw new UrlRefused(`Only default ports (80 for http, 443 for https) are allowed, not ${url.port}.`)
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  let addresses: ResolvedAddress[]
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }]
  } else {
    try {
      addresses = await abortable(options.resolve(host), signal)
    } catch (err) {
      if (err instanceof UrlRefused) throw err
      throw new UrlRefused(`The host ${host} could not be resolved.`)
    }
    if (!addresses.length) throw new UrlRefused(`The host ${host} has no address.`)
  }
  // Every address must pass: a name that also points inside would otherwise be a coin toss.
  if (!exempt && addresses.some((a) => !isPublicAddress(a.address))) {
    throw new UrlRefused(`The URL points to a private or reserved network address (${host}); only public addresses are downloaded.`)
  }
  return { url, address: addresses[0].address, port }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (e) => {
        signal.removeEventListener('abort', onAbort)
        reject(e)
      },
    )
  })
}

/** A client for one hop whose only way out is the pinned address (no second DNS lookup). */
async function pinnedClient(hop: Hop, options: NetworkOptions, signal: AbortSignal): Promise<Client> {
  // undici loads with the first upload-by-URL, not at start (idle memory).
  const { Client } = await import('undici')
  const tls = hop.url.protocol === 'https:'
  const host = hop.url.hostname.startsWith('[') ? hop.url.hostname.slice(1, -1) : hop.url.hostname
  return new Client(hop.url.origin, {
    connect: (_opts, callback) => {
      options.connect({ address: hop.address, port: hop.port, tls, servername: isIP(host) ? undefined : host, signal }).then(
        (socket) => callback(null, socket),
        (err: Error) => callback(err, null),
      )
    },
    pipelining: 0,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  })
}

/**
 * Downloads an image URL for upload-by-URL without letting the caller reach private networks:
 * http(s) on default ports, every address checked before connecting, the socket pinned to the
 * checked address (no DNS rebinding), at most `maxRedirects` redirects each checked the same way,
 * at most `maxBytes`, within `timeoutMs` in all. Returns the size written to `destination`.
 */
export async function guardedFetch(rawUrl: string, options: GuardedFetchOptions): Promise<{ size: number; url: string; cacheControl: string | undefined }> {
  return withinDeadline(
    rawUrl,
    options.timeoutMs,
    { late: 'The download did not finish', failed: 'The URL could not be downloaded' },
    async (start, signal) => {
      let url = start
      for (let redirects = 0; ; redirects++) {
        const hop = await checkHop(url, options, signal)
        const client = await pinnedClient(hop, options, signal)
        try {
          const res = await client.request({
            path: `${url.pathname}${url.search}`,
            method: 'GET',
            headers: {
              accept: options.accept ?? 'image/jpeg, image/png, image/webp, image/gif',
              'accept-encoding': 'identity',
              'user-agent': 'Slotline-Upload/1.0',
            },
            signal,
          })
          if (REDIRECTS.has(res.statusCode)) {
            res.body.resume()
            const location = res.headers.location
            if (typeof location !== 'string') throw new UrlRefused(`The URL answered ${res.statusCode} without a Location.`)
            if (redirects >= options.maxRedirects) throw new UrlRefused(`The URL redirects more than ${options.maxRedirects} times.`)
            url = new URL(location, url)
            continue
          }
          if (res.statusCode < 200 || res.statusCode > 299) {
            res.body.resume()
            throw new UrlRefused(`The URL answered HTTP ${res.statusCode}; it must answer 200 with the image.`)
          }
          const declared = Number(res.headers['content-length'])
          if (declared > options.maxBytes) {
            // Destroying a body that is still arriving makes it emit an error; unheard, that
            // error would end the process.
            res.body.on('error', () => {}).destroy()
            throw new UrlRefused(tooLarge(options.maxBytes))
          }
          const limiter = new ByteLimit(options.maxBytes, (max) => new UrlRefused(tooLarge(max)))
          await pipeline(res.body, limiter, createWriteStream(options.destination), { signal })
          const cacheControl = res.headers['cache-control']
          return { size: limiter.seen, url: url.href, cacheControl: typeof cacheControl === 'string' ? cacheControl : undefined }
        } finally {
          await client.destroy().catch(() => {})
        }
      }
    },
  )
}

/**
 * Runs `work` on the parsed URL within `timeoutMs` in all, aborting through its signal when time
 * runs out; whatever goes wrong comes out as a UrlRefused saying what, never a bare network error.
 */
async function withinDeadline<T>(
  rawUrl: string,
  timeoutMs: number,
  words: { late: string; failed: string },
  work: (url: URL, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    throw new UrlRefused('The URL is not valid.')
  }
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new UrlRefused(`${words.late} within ${timeoutMs / 1000} seconds.`)), timeoutMs)
  const { signal } = controller
  try {
    return await work(url, signal)
  } catch (err) {
    if (err instanceof UrlRefused) throw err
    if (signal.aborted && signal.reason instanceof UrlRefused) throw signal.reason
    throw new UrlRefused(`${words.failed}: ${(err as Error).message}`, { cause: err })
  } finally {
    clearTimeout(timer)
  }
}

export interface GuardedPostOptions extends NetworkOptions {
  /** At most this much of the answer is read; the rest is dropped with the connection. */
  maxResponseBytes: number
}

export interface GuardedAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  /** The answer's first maxResponseBytes, as text. */
  body: string
}

/**
 * POSTs `body` to a URL under the same rules as upload-by-URL (public addresses only, pinned to
 * the checked address, default ports), without following redirects: a redirect is an answer
 * like any other. Any HTTP status is returned; only a refused URL, a network error or the time
 * limit throw (UrlRefused).
 */
export async function guardedPost(rawUrl: string, body: string, headers: Record<string, string>, options: GuardedPostOptions): Promise<GuardedAnswer> {
  return withinDeadline(rawUrl, options.timeoutMs, { late: 'No answer', failed: 'The URL could not be reached' }, async (url, signal) => {
    const client = await pinnedClient(await checkHop(url, options, signal), options, signal)
    try {
      const res = await client.request({ path: `${url.pathname}${url.search}`, method: 'POST', headers, body, signal })
      return { status: res.statusCode, headers: res.headers, body: await firstBytes(res.body, options.maxResponseBytes) }
    } finally {
      await client.destroy().catch(() => {})
    }
  })
}

/** Reads up to `max` bytes of a body and stops; what follows is never read. */
async function firstBytes(body: AsyncIterable<Buffer> & { destroy(): void; on(event: 'error', fn: () => void): unknown }, max: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    chunks.push(chunk)
    size += chunk.length
    if (size >= max) break
  }
  // Leaving the loop early destroys the stream; its late error must not go unheard.
  body.on('error', () => {})
  return Buffer.concat(chunks).subarray(0, max).toString('utf8')
}
