import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.ts'
import { limits } from '../kernel/limits.ts'
import { AppError } from '../kernel/errors.ts'

/**
 * What the server allows a connection before it has a whole request. Headers must arrive within
 * 15 s (a slowloris holds a socket with them); an idle keep-alive socket is kept 72 s, longer than
 * the 60 s idle timeout of common proxies and load balancers, so the proxy, not us, closes it and
 * never sends into a socket we are closing. Node checks these every 5 s (default 30 s).
 * Bodies have their own deadlines (installBodyDeadlines); Node's whole-request timeout is only the
 * backstop above the slowest upload those allow: 50 MB at the minimum rate, plus a minute.
 * There is no idle-socket timeout: a response may legitimately stream with pauses (event streams).
 */
export function serverTimeouts(config: Config) {
  const slowestUploadMs = Math.ceil((limits.uploadMegabytes * 1024 * 1024) / config.deadlines.uploadMinBytesPerSecond) * 1000
  return {
    requestTimeout: slowestUploadMs + 60_000,
    keepAliveTimeout: 72_000,
    http: { headersTimeout: 15_000, connectionsCheckingInterval: 5_000 },
  }
}

/** The request announced a body that has not fully arrived yet. */
const bodyPending = (req: FastifyRequest) =>
  req.raw.complete === false && (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined)

/** File bodies: multipart anywhere, anything sent to an upload URL. */
const isUpload = (req: FastifyRequest) =>
  String(req.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('multipart/') || req.url.startsWith('/-/upload/')

/**
 * A body must arrive within `deadlines.bodyMs` (JSON and forms), or, for uploads, keep up at least
 * `deadlines.uploadMinBytesPerSecond` over every `deadlines.uploadWindowMs`, so a 50 MB image on a
 * slow line still gets through while a trickle does not hold a socket. Past either it is a 408 and
 * the connection is closed.
 *
 * An answer sent before the body has arrived (a 401 at the token, a 403, a 413, a 415, a 429) does
 * not close the connection under a client that is still sending: a socket closed with unread bytes
 * is reset, and the reset reaches the client before (and instead of) the answer it has not yet
 * read (RFC 9112, section 9.6). So the rest of the body is read and thrown away, under the same
 * deadlines, up to `deadlines.refusedBodyBytes`; a body announced larger than that is not read and
 * the connection is closed after the answer, and one that grows past it unannounced is cut.
 */
export function installBodyDeadlines(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (bodyPending(req)) watch(config, req, reply)
    done()
  })
  app.addHook('onSend', (req, reply, payload, done) => {
    if (bodyPending(req) && reply.getHeader('connection') !== 'close') discardRest(config, req, reply)
    done(null, payload)
  })
}

/** Reads what is left of a refused body and drops it; past the bound the connection goes. */
function discardRest(config: Config, req: FastifyRequest, reply: FastifyReply): void {
  const bound = config.deadlines.refusedBodyBytes
  if (Number(req.headers['content-length'] ?? 0) > bound) {
    reply.header('connection', 'close')
    return
  }
  const body = req.raw
  let discarded = 0
  // Whoever was reading the body (a multipart parser) has given up on it.
  body.unpipe()
  body.removeAllListeners('data')
  body.on('data', (chunk: Buffer) => {
    discarded += chunk.length
    if (discarded > bound) body.socket.destroy()
  })
  body.resume()
}

function watch(config: Config, req: FastifyRequest, reply: FastifyReply): void {
  const { bodyMs, uploadMinBytesPerSecond, uploadWindowMs } = config.deadlines
  const socket = req.raw.socket
  let timer: NodeJS.Timeout
  const stop = () => clearTimeout(timer)
  // Kept past the answer: a refused body is still read, and must arrive as fast as any other.
  req.raw.once('end', stop)
  req.raw.once('close', stop)

  const timeOut = (message: string) => {
    if (!bodyPending(req)) return
    if (reply.sent) {
      // The answer is out and the rest of a refused body is late: nothing more to say.
      req.log.info({ received: socket.bytesRead }, 'refused request body too slow')
      socket.destroy()
      return
    }
    req.log.info({ received: socket.bytesRead }, 'request body too slow')
    // Whatever the handler was waiting for will not come: the socket goes once 408 is out.
    reply.raw.once('finish', () => socket.destroy())
    reply.header('connection', 'close')
    reply.send(new AppError('request_timeout', { message }))
  }
  if (!isUpload(req)) {
    timer = setTimeout(() => timeOut(`The request body did not arrive within ${Math.round(bodyMs / 1000)} s.`), bodyMs).unref()
    return
  }
  // Measured on the socket, which counts bytes without taking them from the body's reader.
  const minimum = (uploadMinBytesPerSecond * uploadWindowMs) / 1000
  let seen = socket.bytesRead
  const check = () => {
    const now = socket.bytesRead
    if (now - seen < minimum) {
      return timeOut(`The upload arrived slower than ${uploadMinBytesPerSecond} bytes per second; send it on a faster connection or a smaller file.`)
    }
    seen = now
    timer = setTimeout(check, uploadWindowMs).unref()
  }
  timer = setTimeout(check, uploadWindowMs).unref()
}
