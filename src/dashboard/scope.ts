import { createHmac } from 'node:crypto'
import fastifyCookie from '@fastify/cookie'
import fastifyCsrf from '@fastify/csrf-protection'
import fastifyFormbody from '@fastify/formbody'
import fastifySession from '@fastify/session'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../context.ts'
import { AppError } from '../kernel/errors.ts'
import { renderNextSteps } from '../kernel/next-step.ts'
import { h } from '../slots/shared/html.ts'
import type { Flash } from './layout.ts'
import { sendPage } from './layout.ts'
import { dashboardNextSteps } from './page-next-steps.ts'
import { VISITOR_COOKIE, visitorCsrfToken, visitorCsrfValid } from './visitor-csrf.ts'
import { SESSION_COOKIE } from '../auth/session-cookie.ts'
import type { SessionFacts } from '../auth/session-facts.ts'
import { readsMultipart } from '../http/multipart-scope.ts'

declare module 'fastify' {
  interface Session {
    /** The signed-in user; absent for a visitor. */
    userId?: number
    /** A message for the next page (post/redirect/get). */
    flash?: Flash
    _csrf?: string
    /** Signed in with the password, waiting for the second factor (second-step.ts). */
    pendingSignIn?: { userId: number; next: string; at: number }
    /** What the list of sessions shows of this one (signed-in-session.ts). */
    seen?: SessionFacts
  }
}

// The name lives beside the public pages' check that leaves the owner's visits out.
export { SESSION_COOKIE }
/**
 * Over https the cookies carry the `__Host-` prefix: browsers then accept them only with Secure,
 * Path=/ and no Domain, so a sibling subdomain cannot plant or shadow them.
 */
const hostPrefixed = (ctx: AppContext, name: string) => (ctx.config.publicUrl.startsWith('https:') ? `__Host-${name}` : name)
export const sessionCookieName = (ctx: AppContext) => hostPrefixed(ctx, SESSION_COOKIE)
const visitorCookieName = (ctx: AppContext) => hostPrefixed(ctx, VISITOR_COOKIE)
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
      cookieName: sessionCookieName(ctx),
      // Our store's records are @fastify/session's own; only its types are kept free of Fastify.
      store: ctx.sessions as unknown as fastifySession.SessionStore,
      // Visitors get no session: their forms use a stateless token (visitor-csrf.ts).
      saveUninitialized: false,
      rolling: false,
      // Secure is added below rather than here: behind a TLS-terminating proxy the request
      // looks like http, and the plugin would then refuse to save the session at all.
      cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: false, maxAge: SESSION_DAYS * 86_400_000 },
    })
    await scope.register(fastifyCsrf, { sessionPlugin: '@fastify/session' })
    // Editor and import forms carry files.
    await readsMultipart(scope)
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

const signedIn = (req: FastifyRequest) => typeof req.session?.userId === 'number'

/**
 * Checks the form's `_csrf` field; attach as a preHandler (the body is parsed by then). A signed-in
 * session (or an older visitor session holding a secret) is checked against its secret; a visitor
 * without one against the signed cookie (visitor-csrf.ts).
 */
export const csrfProtection =
  (ctx: AppContext) =>
  (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    if (signedIn(req) || req.session?._csrf) req.server.csrfProtection(req, reply, done)
    else if (visitorCsrfValid(ctx, req, visitorCookieName(ctx))) done()
    else done(Object.assign(new Error('Invalid csrf token'), { code: 'FST_CSRF_INVALID_TOKEN', statusCode: 403 }))
  }

/** The CSRF token for forms on this answer: the session's for a signed-in user, a stateless one for a visitor. */
export const csrfToken = (ctx: AppContext, req: FastifyRequest, reply: FastifyReply) =>
  signedIn(req) ? reply.generateCsrf() : visitorCsrfToken(ctx, req, reply, visitorCookieName(ctx))

/** Errors inside the dashboard become pages, not JSON envelopes. */
async function errorPage(err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  const code = (err as FastifyError).code
  if (code === 'FST_CSRF_INVALID_TOKEN' || code === 'FST_CSRF_MISSING_SECRET') {
    req.log.info({ code }, 'dashboard form refused: CSRF token')
    return notice(reply, 403, 'This form has expired', 'Nothing was changed. Go back, reload the page and send the form again.')
  }
  if (err instanceof AppError && err.code === 'rate_limited') {
    reply.headers(err.headers)
    return notice(reply, 429, 'Too many attempts', renderNextSteps(err.message, dashboardNextSteps))
  }
  if (err instanceof AppError && err.code === 'not_found') return notice(reply, 404, 'Not found', 'There is nothing here, or it belongs to another account.')
  const status = err instanceof AppError ? err.status : (err as FastifyError).statusCode
  if (status && status >= 400 && status < 500) {
    req.log.info({ status, message: err.message }, 'dashboard request refused')
    return notice(reply, status, 'This request could not be handled', renderNextSteps(err.message, dashboardNextSteps))
  }
  req.log.error({ err }, 'dashboard error')
  return notice(reply, 500, 'Something went wrong', `Please try again. If it keeps happening, tell the operator this request id: ${req.id}.`)
}

function notice(reply: FastifyReply, status: number, title: string, text: string) {
  return sendPage(reply, { title, narrow: true, body: h`<h1>${title}</h1><p>${text}</p><p><a href="/my-links">Back to the dashboard</a></p>` }, status)
}
