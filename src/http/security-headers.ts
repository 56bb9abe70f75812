import type { FastifyInstance } from 'fastify'

/** For answers that are not documents (JSON, images, scripts): nothing may load, nothing may frame them. */
const NON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/**
 * The baseline every answer carries, whoever sent it: API, docs, dashboard, pages, errors,
 * 404s. Faces with their own policy (public pages, the dashboard, /v1/docs, uploaded files) set
 * `content-security-policy` themselves and keep it; one missing `frame-ancestors` gets it added,
 * so no answer can be framed unless its face says so. Public page cache hits are answered before
 * Fastify with the page's own headers (src/pages/security-headers.ts), which carry the same.
 */
export function installSecurityHeaders(app: FastifyInstance, options: { https?: boolean } = {}): void {
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff')
    // Served over https (PUBLIC_URL), the browser keeps to https for a year: no first request in
    // plain http for a network to rewrite. Subdomains are not ours to speak for.
    if (options.https) reply.header('strict-transport-security', 'max-age=31536000')
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'strict-origin-when-cross-origin')
    const csp = reply.getHeader('content-security-policy')
    if (csp === undefined) reply.header('content-security-policy', NON_DOCUMENT_CSP)
    else if (!/frame-ancestors/i.test(String(csp))) reply.header('content-security-policy', `${csp}; frame-ancestors 'none'`)
    if (!reply.hasHeader('x-frame-options') && !/frame-ancestors\s+(?!'none')/i.test(String(reply.getHeader('content-security-policy')))) {
      reply.header('x-frame-options', 'DENY')
    }
    done(null, payload)
  })
}
