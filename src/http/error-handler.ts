import type { FastifyError, FastifyInstance } from 'fastify'
import type { AppContext } from '../context.ts'
import { AppError, documentationUrl, type ErrorCode } from '../kernel/errors.ts'
import { filterValidateOnly, isPrecognitive, markPrecognitive, sendPrecognitionSuccess } from './precognition.ts'
import { renderNextSteps, renderNextStepsIn } from '../kernel/next-step.ts'
import { restNextSteps } from './route-next-steps.ts'

const byStatus: Record<number, ErrorCode> = {
  400: 'malformed_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'unsupported_media_type',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'rate_limited',
}

/** Framework and library errors in our vocabulary; anything unexpected is a plain 500. */
function toAppError(err: FastifyError | Error): AppError {
  if (err instanceof AppError) return err
  const status = (err as FastifyError).statusCode
  if (status && status >= 400 && status < 500) {
    const code = byStatus[status] ?? 'validation_failed'
    // A body type the route does not take: our message says which types are taken.
    if ((err as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new AppError(code)
    return new AppError(code, { status: byStatus[status] ? undefined : status, message: err.message })
  }
  return new AppError('internal_error')
}

/** The one place an error becomes a response body: `{message, code, errors, documentation}`. */
export function installErrorHandler(app: FastifyInstance, ctx: AppContext): void {
  app.setErrorHandler(async (err: FastifyError | Error, req, reply) => {
    const appErr = toAppError(err)
    let errors = appErr.errors ?? null
    if (appErr.code === 'upstream_unavailable') {
      // Expected now and then (a catalogue is down): a warning naming what failed, no stack.
      const cause = appErr.cause instanceof Error ? appErr.cause.message : undefined
      req.log.warn({ code: appErr.code, status: appErr.status, cause }, appErr.message)
    } else if (appErr.status >= 500) {
      req.log.error({ err }, 'unhandled error')
    } else {
      req.log.info({ code: appErr.code, status: appErr.status }, appErr.message)
    }
    if (isPrecognitive(req)) {
      markPrecognitive(reply)
      if (appErr.status === 422 && errors) {
        errors = filterValidateOnly(req, errors)
        if (Object.keys(errors).length === 0) return sendPrecognitionSuccess(reply)
      }
    }
    // The core names next steps by operation; here they become the API's routes.
    const said = renderNextSteps(appErr.message, restNextSteps)
    const message = appErr.status >= 500 ? `${said} Request id: ${req.id}.` : said
    errors = errors && renderNextStepsIn(errors, restNextSteps)
    reply.code(appErr.status).headers(appErr.headers)
    return reply.send({ message, code: appErr.code, errors, documentation: documentationUrl(ctx.config.publicUrl, appErr.code) })
  })

  app.setNotFoundHandler(async (req) => {
    throw new AppError('not_found', { message: `No endpoint ${req.method} ${req.url.split('?')[0]}. GET /v1/ lists them.` })
  })
}
