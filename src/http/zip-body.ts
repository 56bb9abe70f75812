import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { ARCHIVE_LIMITS } from '../transfer/page-archive.ts'

/**
 * `application/zip` bodies (a page archive) arrive whole as a Buffer, up to the
 * archive limit rather than the 8 MB of JSON bodies, hashed as received so Idempotency-Key
 * compares the exact bytes like it does for JSON. Routes that take no zip answer 415 as before:
 * they declare no zip in their row, and their body schema refuses a Buffer.
 */
export function installZipBody(app: FastifyInstance): void {
  app.addContentTypeParser(
    ['application/zip', 'application/x-zip-compressed'],
    { parseAs: 'buffer', bodyLimit: ARCHIVE_LIMITS.maxArchiveBytes },
    (req, body, done) => {
      req.bodyDigest = createHash('sha256')
        .update(body as Buffer)
        .digest('hex')
      done(null, body)
    },
  )
}
