import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FieldErrors } from './errors.ts'

// Laravel Precognition's protocol: a write sent with `Precognition: true` runs every check and
// stores nothing; success is 204 with `Precognition-Success: true`; answers carry
// `Precognition: true` and `Vary: Precognition`.

export const isPrecognitive = (req: FastifyRequest) => req.method !== 'GET' && req.headers.precognition === 'true'

export function markPrecognitive(reply: FastifyReply): void {
  reply.header('Precognition', 'true')
  reply.header('Vary', 'Precognition')
}

export function sendPrecognitionSuccess(reply: FastifyReply): FastifyReply {
  markPrecognitive(reply)
  reply.header('Precognition-Success', 'true')
  return reply.code(204).send()
}

/** `Precognition-Validate-Only: a,b` keeps only the errors of those fields (and their children). */
export function filterValidateOnly(req: FastifyRequest, errors: FieldErrors): FieldErrors {
  const header = req.headers['precognition-validate-only']
  if (typeof header !== 'string' || !header.trim()) return errors
  const wanted = header
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const out: FieldErrors = {}
  for (const [key, messages] of Object.entries(errors)) {
    if (wanted.some((w) => key === w || key.startsWith(`${w}.`))) out[key] = messages
  }
  return out
}
