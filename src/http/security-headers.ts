import type { FastifyInstance } from 'fastify'

/** For answers that are not documents (JSON, images, scripts): nothing may load, nothing may frame them. */
const NON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/**
 * The baseline every answer carries, whoever sent it: API, docs, dashboard, pages, errors,
 * 404s. Faces with their own policy (public pages, the dashboard, /v1/docs, uploaded files) set
 * `content-security-policy` themselves and keep it; one missing `frame-ancestors` gets it added,
 * so no answer can be framed unless its face says so. Public page cache hits are answered before
 * Fastify with the page's own headers (src/rendering/page-security-headers.ts), which carry the same.
 */
export function installSecurityHeaders(app: FastifyInstance, options: { https?: boolean } = {}): void {
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff')
    // Served over https (PUBLIC_URL), the browser keeps to https for a year: no first request in
    // plain http for a network to rewrite. Subdomains are not ours to speak for.
    if (options.https) reply.header('strict-transport-security', 'max-age=31536000')
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'strict-origin-when-cross-origin')
    // An answer that says nothing about caching is personal (API, dashboard, errors):
    // no shared cache in front of the service may keep it. Public pages, images and files say.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-store')
    const csp = reply.getHeader('content-security-policy')
    // Most answers (JSON, errors) set no policy of their own: two fixed headers, no pattern to test.
    if (csp === undefined) {
      reply.header('content-security-policy', NON_DOCUMENT_CSP)
      if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'DENY')
      return done(null, payload)
    }
    const policy = /frame-ancestors/i.test(String(csp)) ? String(csp) : `${csp}; frame-ancestors 'none'`
    if (policy !== csp) reply.header('content-security-policy', policy)
    if (!reply.hasHeader('x-frame-options') && !/frame-ancestors\s+(?!'none')/i.test(policy)) reply.header('x-frame-options', 'DENY')
    done(null, payload)
  })
}
