import type { FastifyReply, FastifyRequest } from 'fastify'
import { type FieldErrors, mergeErrors } from '../kernel/errors.ts'

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

/** `Precognition-Validate-Only: a,b` keeps only the errors that bear on those fields. */
export function filterValidateOnly(req: FastifyRequest, errors: FieldErrors): FieldErrors {
  const header = req.headers['precognition-validate-only']
  if (typeof header !== 'string' || !header.trim()) return errors
  const wanted = header
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  // A named field's own errors, its children's, and its ancestors' (data must be an object
  // before data.title can be valid): never fewer problems for a field than the real call finds.
  const related = (key: string, w: string) => key === w || key.startsWith(`${w}.`) || w.startsWith(`${key}.`) || key === ''
  const kept = Object.entries(errors).filter(([key]) => wanted.some((w) => related(key, w)))
  // Field names are the client's (`__proto__` included): assigning them would set a prototype
  // instead of keeping the error, and the dry run would pass where the real call fails.
  return mergeErrors({}, Object.fromEntries(kept))
}
