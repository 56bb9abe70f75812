import multipart from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import { MAX_UPLOAD_BYTES } from '../media/uploads.ts'

/**
 * Makes `scope` read multipart/form-data. @fastify/multipart puts two asynchronous hooks (and a
 * socket listener) on every request of the scope it is registered in, for the temporary files of
 * a few routes: registered globally, every request paid for them (bench/hooks.ts). So only the
 * scopes that take files register it; elsewhere a multipart body is refused with a 415 before it
 * is read, like any other type no route takes. Faces pass their own limits to `req.parts()`.
 */
export const readsMultipart = (scope: FastifyInstance) =>
  scope.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 8192, parts: 12 } })

/** Registers `routes` in a scope of their own that reads multipart/form-data. */
export function multipartScope(app: FastifyInstance, routes: (scope: FastifyInstance) => void): void {
  app.register(async (scope) => {
    await readsMultipart(scope)
    routes(scope)
  })
}
