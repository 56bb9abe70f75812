import { createHmac } from 'node:crypto'
import fastifyCookie from '@fastify/cookie'
import fastifyCsrf from '@fastify/csrf-protection'
import fastifyFormbody from '@fastify/formbody'
import fastifySession from '@fastify/session'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../context.ts'
import { AppError } from '../core/errors.ts'
import { h } from '../slots/shared/html.ts'
import type { Flash } from './layout.ts'
import { sendPage } from './layout.ts'
import { sessionStoreOf } from './session-store.ts'
import { SESSION_COOKIE } from '../auth/session-cookie.ts'

declare module 'fastify' {
  interface Session {
    /** The signed-in user; absent for a visitor. */
    userId?: number
    /** A message for the next page (post/redirect/get). */
    flash?: Flash
    _csrf?: string
  }
}

// The name lives beside the public pages' check that leaves the owner's visits out (issue 31).
export { SESSION_COOKIE }
/** Sessions last this long from sign-in; no sliding renewal, so a stolen cookie ages out. */
export const SESSION_DAYS = 14

/** The cookie signing key, derived from the service secret so every instance signs alike. */
const sessionSecret = (ctx: AppContext) => createHmac('sha256', ctx.secret).update('dashboard session cookie').digest('hex')

/**
 * A Fastify scope with what server-rendered forms need: form bodies, the session cookie (our
 * store: SQL or Redis), CSRF protection and HTML error pages. It is encapsulated, so the JSON
 * API and the public pages pay nothing for it. The dashboard registers its routes in one; OAuth's
 * consent page may register its own the same way and shares the sessions.
 */
export function dashboardScope(app: FastifyInstance, ctx: AppContext, routes: (scope: FastifyInstance) => void | Promise<void>): void {
  app.register(async (scope) => {
    await scope.register(fastifyFormbody, { bodyLimit: 64 * 1024 })
    await scope.register(fastifyCookie)
    const https = ctx.config.publicUrl.startsWith('https:')
    await scope.register(fastifySession, {
      secret: sessionSecret(ctx),
      cookieName: SESSION_COOKIE,
      store: sessionStoreOf(ctx),
      // Visitors get a session (and a cookie) only once a form needs a CSRF secret.
      saveUninitialized: false,
      rolling: false,
      // Secure is added below rather than here: behind a TLS-terminating proxy the request
      // looks like http, and the plugin would then refuse to save the session at all.
      cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: false, maxAge: SESSION_DAYS * 86_400_000 },
    })
    await scope.register(fastifyCsrf, { sessionPlugin: '@fastify/session' })
    if (https) scope.addHook('onSend', async (_req, reply) => markCookiesSecure(reply))
    scope.setErrorHandler((err: FastifyError | Error, req, reply) => errorPage(err, req, reply))
    await routes(scope)
  })
}

function markCookiesSecure(reply: FastifyReply): void {
  const cookies = reply.getHeader('set-cookie')
  if (!cookies) return
  const list = (Array.isArray(cookies) ? cookies : [String(cookies)]).map((c) => (/;\s*secure/i.test(c) ? c : `${c}; Secure`))
  // Fastify appends to set-cookie rather than replacing it.
  reply.removeHeader('set-cookie')
  reply.header('set-cookie', list)
}

/** Checks the form's `_csrf` field against the session; attach as a preHandler (the body is parsed by then). */
export function csrfProtected(req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
  req.server.csrfProtection(req, reply, done)
}

/** The CSRF token for forms on this answer (creates the session's secret when needed). */
export const csrfToken = (reply: FastifyReply) => reply.generateCsrf()

/** Errors inside the dashboard become pages, not JSON envelopes. */
async function errorPage(err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  const code = (err as FastifyError).code
  if (code === 'FST_CSRF_INVALID_TOKEN' || code === 'FST_CSRF_MISSING_SECRET') {
    req.log.info({ code }, 'dashboard form refused: CSRF token')
    return notice(reply, 403, 'This form has expired', 'Nothing was changed. Go back, reload the page and send the form again.')
  }
  if (err instanceof AppError && err.code === 'rate_limited') {
    reply.headers(err.headers)
    return notice(reply, 429, 'Too many attempts', err.message)
  }
  if (err instanceof AppError && err.code === 'not_found') return notice(reply, 404, 'Not found', 'There is nothing here, or it belongs to another account.')
  const status = err instanceof AppError ? err.status : (err as FastifyError).statusCode
  if (status && status >= 400 && status < 500) {
    req.log.info({ status, message: err.message }, 'dashboard request refused')
    return notice(reply, status, 'This request could not be handled', err.message)
  }
  req.log.error({ err }, 'dashboard error')
  return notice(reply, 500, 'Something went wrong', `Please try again. If it keeps happening, tell the operator this request id: ${req.id}.`)
}

function notice(reply: FastifyReply, status: number, title: string, text: string) {
  return sendPage(reply, { title, narrow: true, body: h`<h1>${title}</h1><p>${text}</p><p><a href="/my-links">Back to the dashboard</a></p>` }, status)
}
