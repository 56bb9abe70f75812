import type { TSchema } from '@sinclair/typebox'
import { compileBody, queryAjv, validationError } from '../kernel/validation.ts'

/** Fastify validator compiler: strict JSON bodies, coerced query strings and params. */
export function validatorCompiler({ schema, httpPart }: { schema: TSchema; httpPart?: string }) {
  const isBody = httpPart === 'body'
  const validate = isBody ? compileBody(schema) : queryAjv.compile(schema)
  return (data: unknown) => {
    // An omitted JSON body validates as an empty object (PATCH bodies may be omitted).
    const value = isBody && (data === null || data === undefined) ? {} : data
    if (validate(value)) return { value }
    return { error: validationError(validate.errors, '', isBody ? 'body' : httpPart === 'params' ? 'path' : 'query') }
  }
}
