import pino, { type DestinationStream, type Logger } from 'pino'

/** Query parameters whose values are credentials (OAuth 2.1, RFC 6749/7636, our own links). */
const SECRET_PARAMS = new Set([
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'client_secret',
  'password',
  'session',
  'sid',
  'key',
  'signature',
])

const REDACTED = '[redacted]'

/**
 * A request URL as it may be logged: the token of a signed upload URL (usable for 15 minutes)
 * and credential query parameters are replaced. Everything else stays, so the line still says
 * which route was hit.
 */
export function redactUrl(url: string): string {
  if (typeof url !== 'string') return url
  const q = url.indexOf('?')
  if (q < 0 && !url.startsWith('/-/upload/')) return url
  let path = q < 0 ? url : url.slice(0, q)
  path = path.replace(/^(\/-\/upload\/)[^/]+/, `$1${REDACTED}`)
  if (q < 0) return path
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      const name = eq < 0 ? pair : pair.slice(0, eq)
      let decoded = name
      try {
        decoded = decodeURIComponent(name)
      } catch {}
      return eq >= 0 && SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=${REDACTED}` : pair
    })
    .join('&')
  return `${path}?${query}`
}

/**
 * Secrets recognisable by their shape, wherever they end up (an error message, a stack, a
 * URL inside a message): API tokens, signed upload tokens, bearer credentials of any shape.
 * The last line of defence; the structured ones are the paths and serializers below. One
 * pattern, so a line is scanned once (every request writes one).
 */
const SECRET_SHAPE = new RegExp(
  [
    /\bsl[por]_[0-9A-Za-z]{20,}/.source,
    /[A-Za-z0-9_-]{24}\.\d{1,12}\.[A-Za-z0-9_-]{43}/.source,
    // Our own messages name the placeholder `Bearer <token>`, which is no credential to hide.
    /(\b[Bb][Ee][Aa][Rr][Ee][Rr]\s+)(?!<token>(?:[\s"\\;.,]|$))[^\s"\\]+/.source,
  ].join('|'),
  'g',
)

/** What each shape starts with or must hold: most lines have none of these, and one quick scan says so. */
const SECRET_MARK = /sl[por]_|\.\d|[Bb][Ee][Aa][Rr][Ee][Rr]/

export const scrubLine = (line: string) =>
  SECRET_MARK.test(line) ? line.replace(SECRET_SHAPE, (_shape, bearer: string | undefined) => `${bearer ?? ''}${REDACTED}`) : line

/** Fields that hold secrets, wherever a log call puts them: at the top or one level down. */
const SECRET_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'access_token',
  'refresh_token',
  'sessionId',
  'clientSecret',
  'client_secret',
  'code_verifier',
  'body',
]

/** At the top of a log call's object or of a request's, by pino's own redaction. */
const REDACT_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie', 'headers["set-cookie"]', ...SECRET_FIELDS]

/** One level down (`{ input: { password } }`), by hand: see censorNested. */
const NESTED_SECRETS = new Set(SECRET_FIELDS)

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** `value` with its secret keys censored: a copy when it holds one, else `value` itself. */
function censorSecretKeys<T>(value: T): T {
  if (!isRecord(value)) return value
  let copy: Record<string, unknown> | undefined
  for (const key in value) {
    if (NESTED_SECRETS.has(key)) {
      copy ??= { ...value }
      copy[key] = REDACTED
    }
  }
  return (copy ?? value) as T
}

/**
 * Censors secrets one level down by hand. pino's wildcard paths (`*.password`) did it too, but
 * ran their censor over every value of every line, a request's line included: about half the
 * cost of logging one (bench/hooks.ts). Errors are censored after their serializer, below,
 * which turns them into plain objects first.
 */
function censorNested(obj: Record<string, unknown>): Record<string, unknown> {
  let out = obj
  for (const key in obj) {
    const value = obj[key]
    if (!isRecord(value) || value instanceof Error) continue
    const censored = censorSecretKeys(value)
    if (censored !== value) {
      if (out === obj) out = { ...obj }
      out[key] = censored
    }
  }
  return out
}

const serializers = {
  url: redactUrl,
  req: (req: { method?: string; url?: string; id?: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url ?? '') }),
  err: (err: Error) => censorSecretKeys(pino.stdSerializers.err(err)),
}

/**
 * The service's logger: JSON lines at `level`, with secrets redacted three ways (named fields,
 * URLs, and anything shaped like one of our credentials). Every process builds its logger here.
 * Without a destination, lines go to stdout, buffered (a synchronous write to stdout for every
 * request's line cost /-/healthz about a third of its throughput: bench/hooks.ts).
 */
export function createLogger(level: string, destination?: DestinationStream | NodeJS.WritableStream): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers,
    formatters: { log: censorNested },
    hooks: { streamWrite: scrubLine },
  }
  return pino(options, destination ?? bufferedStdout())
}

/**
 * Stdout, written asynchronously in chunks of 16 KB, and at least once a second: a busy service
 * pays one system call (and one wake of a libuv thread) for about seventy lines, not one for each
 * (bench/hooks.ts), and a quiet one still shows each line within a second. Nothing is lost at
 * exit: what is held is written synchronously then. One per process, whatever the number of
 * loggers (tests make many), as there is one stdout.
 *
 * Lines are gathered here and handed to pino's stream a chunk at a time: that stream measures
 * all its pending text at every write (Buffer.byteLength of a string that grows to 16 KB), a
 * cost per line that grew with the chunk.
 */
let stdout: DestinationStream | undefined

function bufferedStdout(): DestinationStream {
  if (stdout) return stdout
  const CHUNK = 16384
  let held: string[] = []
  let size = 0
  const handOver = () => {
    if (size === 0) return
    const text = held.join('')
    held = []
    size = 0
    sonic.write(text)
  }
  // Registered before the stream's own exit flush (pino's, once per process), which then writes
  // what this hands over; if another stream registered that flush first, this one does it.
  process.once('exit', () => {
    handOver()
    try {
      sonic.flushSync()
    } catch {
      // Closed or broken already (a stdout piped to a reader that left): nowhere to write to.
    }
  })
  const sonic = pino.destination({ fd: 1, sync: false })
  setInterval(handOver, 1000).unref()
  stdout = {
    write(line: string) {
      held.push(line)
      size += line.length
      if (size >= CHUNK) handOver()
    },
  }
  return stdout
}

/**
 * Writes a request's one line through pino, so its redaction, serializers (the URL's credentials)
 * and the request logger's bindings (the request id, the OAuth client) apply as to any line.
 */
export function logRequestLine(log: Logger, method: string, url: string, status: number, ms: number): void {
  log.info({ method, url, status, ms }, 'request')
}
