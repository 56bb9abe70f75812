import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../context.ts'
import { AppError, notFound } from '../kernel/errors.ts'
import { getOrMakeSquare } from '../media/square-crops.ts'
import { CONTENT_TYPES, STORAGE_KEY } from '../media/storage.ts'
import { UPLOAD_PATH, uploadGrants } from '../media/upload-grant-service.ts'
import { type UploadedFile, uploadService } from '../media/uploads.ts'
import { multipartScope } from './multipart-scope.ts'

/** The media faces of the service: uploaded files under /static/, and the signed upload URLs under /-/upload/. */
export function installMedia(app: FastifyInstance, ctx: AppContext): void {
  app.get('/static/*', (req, reply) => serveFile(ctx, req, reply))

  multipartScope(app, (scope) => {
    // Upload URLs take any body as a stream (PUT of raw bytes), or multipart; nothing is buffered.
    scope.removeContentTypeParser('application/json')
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null))
    scope.put(`${UPLOAD_PATH}/:token`, (req, reply) => receiveUpload(ctx, req, reply, 'raw'))
    scope.post(`${UPLOAD_PATH}/:token`, (req, reply) => receiveUpload(ctx, req, reply, 'multipart'))
  })
}

async function serveFile(ctx: AppContext, req: FastifyRequest, reply: FastifyReply) {
  const key = (req.params as Record<string, string>)['*']
  if (!STORAGE_KEY.test(key)) throw notFound('file')
  // Keys are never reused and files never change, so the key itself is the validator.
  const etag = `"${key}"`
  reply.header('ETag', etag)
  reply.header('Cache-Control', 'public, max-age=31536000, immutable')
  reply.header('X-Content-Type-Options', 'nosniff')
  // An image opened directly must not be able to run anything, whatever its bytes say.
  reply.header('Content-Security-Policy', "default-src 'none'; sandbox")
  if (req.headers['if-none-match'] === etag) return reply.code(304).send()
  const object = await getOrMakeSquare(ctx.media.storage, key)
  if (!object) throw notFound('file')
  reply.type(CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)])
  reply.header('Content-Length', object.size)
  return reply.send(object.body)
}

async function receiveUpload(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, kind: 'raw' | 'multipart') {
  if (kind === 'multipart' && !req.isMultipart()) {
    throw new AppError('unsupported_media_type', { message: 'POST a multipart/form-data body with one part "file", or PUT the raw bytes.' })
  }
  const grant = await uploadGrants.redeem(ctx, (req.params as { token: string }).token)
  let file: UploadedFile | undefined
  try {
    if (kind === 'raw') {
      const length = req.headers['content-length']
      file = await uploadService.fromStream(ctx, grant.userId, req.raw, length === undefined ? undefined : Number(length), { dryRun: false })
    } else {
      file = await uploadService.fromMultipart(ctx, grant.userId, req, { dryRun: false, allowUrl: false })
    }
  } catch (err) {
    await uploadGrants.giveBack(ctx, grant.id)
    throw err
  }
  return reply.code(201).send({ data: file })
}
