import type { TSchema } from '@sinclair/typebox'
import type { ValidateFunction } from 'ajv'
import { compileBody, queryAjv, validationError } from '../kernel/validation.ts'

/**
 * Fastify validator compiler: strict JSON bodies, coerced query strings and params. Each route's
 * validator is compiled on its first request, not when the route is registered: most routes of a
 * resting instance are never called, and their compiled validators would stay in its memory.
 */
export function validatorCompiler({ schema, httpPart }: { schema: TSchema; httpPart?: string }) {
  const isBody = httpPart === 'body'
  let validate: ValidateFunction | undefined
  return (data: unknown) => {
    validate ??= isBody ? compileBody(schema) : queryAjv.compile(schema)
    // An omitted JSON body validates as an empty object (PATCH bodies may be omitted).
    const value = isBody && (data === null || data === undefined) ? {} : data
    if (validate(value)) return { value }
    return { error: validationError(validate.errors, '', isBody ? 'body' : httpPart === 'params' ? 'path' : 'query') }
  }
}
