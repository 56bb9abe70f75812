/**
 * Every error the API can answer, one row each: code → status → default message.
 * Throw sites name a code; only the error handler turns an AppError into a body.
 */
export const errorTable = {
  unauthenticated: { status: 401, message: 'A valid bearer token is required: send Authorization: Bearer <token>.' },
  forbidden: { status: 403, message: 'This token is not allowed to perform this operation.' },
  not_found: { status: 404, message: 'The requested resource was not found.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed on this path.' },
  limit_reached: { status: 409, message: 'A count limit has been reached.' },
  read_only: { status: 409, message: 'This resource is read-only through the API.' },
  idempotency_in_progress: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed; retry shortly.',
  },
  malformed_request: { status: 400, message: 'The request body could not be parsed.' },
  request_timeout: { status: 408, message: 'The request body did not arrive in time; send it again.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Send application/json (or multipart/form-data where the endpoint takes files).' },
  validation_failed: { status: 422, message: 'The given data was invalid.' },
  idempotency_mismatch: {
    status: 422,
    message: 'This Idempotency-Key was already used with a different request; use a new key.',
  },
  rate_limited: { status: 429, message: 'Too many requests; retry after the number of seconds in Retry-After.' },
  internal_error: { status: 500, message: 'Something went wrong on our side.' },
  upstream_unavailable: { status: 503, message: 'An upstream service is unavailable; try again later.' },
} as const satisfies Record<string, { status: number; message: string }>

export type ErrorCode = keyof typeof errorTable
export type FieldErrors = Record<string, string[]>

export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly errors: FieldErrors | null | undefined
  readonly headers: Record<string, string>

  constructor(
    code: ErrorCode,
    options: { message?: string; errors?: FieldErrors | null; status?: number; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(options.message ?? errorTable[code].message, { cause: options.cause })
    this.code = code
    this.status = options.status ?? errorTable[code].status
    this.errors = options.errors
    this.headers = options.headers ?? {}
  }
}

export const notFound = (what = 'resource', message?: string) => new AppError('not_found', { message: message ?? `The ${what} was not found.` })

/**
 * How many offending fields one answer names. Past it the message says how many more there are:
 * a list of thousands of bad fields costs megabytes and helps nobody fix the first.
 */
export const MAX_REPORTED_FIELDS = 50

/** A 422 naming each offending field (the first 50); the message repeats the first problem, as Laravel does. */
export function invalid(all: FieldErrors, message?: string): AppError {
  const keys = Object.keys(all)
  let errors = all
  if (keys.length > MAX_REPORTED_FIELDS) {
    errors = Object.create(null) as FieldErrors
    for (const k of keys.slice(0, MAX_REPORTED_FIELDS)) errors[k] = all[k]
  }
  const first = keys.length ? `${all[keys[0]][0]}` : errorTable.validation_failed.message
  const more =
    keys.length > MAX_REPORTED_FIELDS
      ? ` (${keys.length} fields have errors: the first ${MAX_REPORTED_FIELDS} are named, and ${keys.length - MAX_REPORTED_FIELDS} more)`
      : keys.length > 1
        ? ` (and ${keys.length - 1} more error${keys.length > 2 ? 's' : ''})`
        : ''
  return new AppError('validation_failed', { message: message ?? `${first}${more}`, errors })
}

/** One field, one problem: the common case of invalid(). */
export const invalidField = (field: string, problem: string) => invalid({ [field]: [problem] })

/**
 * Merge field error maps, keeping every message. Keys are client-chosen (`__proto__`,
 * `constructor`), so they are defined as own properties, never assigned through the prototype.
 */
export function mergeErrors(target: FieldErrors, source: FieldErrors, prefix = ''): FieldErrors {
  for (const [key, messages] of Object.entries(source)) {
    const k = prefix + key
    const existing = Object.hasOwn(target, k) ? target[k] : []
    Object.defineProperty(target, k, { value: [...existing, ...messages], enumerable: true, writable: true, configurable: true })
  }
  return target
}

export const documentationUrl = (publicUrl: string, code: string) => `${publicUrl}/v1/docs#error-${code}`
