import { invalidField } from '../kernel/errors.ts'
import { claimAfterBody } from '../http/idempotency.ts'
import { route, routes } from '../http/routes.ts'
import { DataOf } from '../http/envelope-schemas.ts'
import { limits } from '../kernel/limits.ts'
import { files as fileUseCases, UploadedFile, UploadFromUrl, UploadUrlGrant } from '../core/use-cases.ts'

export default routes('Files', 'Image uploads: the paths that avatar, bgImage, picture and gallery slots take.', '/v1/files', [
  route({
    method: 'POST',
    url: '',
    operationId: 'uploadFile',
    summary: 'Upload an image',
    description: `Send either a multipart form with one part "file" (up to ${limits.uploadMegabytes} MB) or JSON {url} (the server downloads it), not both. Accepted: jpeg, png, webp, gif, checked from the bytes. Images are oriented by EXIF, stripped of metadata and downscaled to ${limits.imageMaxWidth} px width; gif is kept as uploaded. Returns the path to put in avatar, bgImage or a picture/gallery slot.`,
    scope: 'profile:write',
    body: UploadFromUrl,
    multipart: true,
    reply: { 201: DataOf(UploadedFile) },
    errors: [409, 413],
    handler: async ({ ctx, principal, body, req, reply, dryRun }) => {
      if (req.isMultipart()) {
        // The Idempotency-Key is checked against the hash of the parts, known once they have been read.
        const beforeStore = (digest: string) => claimAfterBody(ctx, req, reply, digest)
        return fileUseCases.upload(ctx, principal, { multipart: req, beforeStore }, { dryRun })
      }
      if (body?.url === undefined) throw invalidField('file', 'Send the image as a multipart part named "file", or JSON {url}.')
      return fileUseCases.upload(ctx, principal, { url: body.url }, { dryRun })
    },
  }),
  route({
    method: 'POST',
    url: '/upload-url',
    operationId: 'createUploadUrl',
    summary: 'Get a signed URL to upload an image to',
    description: `For clients that cannot send the file through the API themselves: the answer's upload_url takes one PUT of raw bytes (or POST of a multipart part "file"), up to ${limits.uploadMegabytes} MB, without a token, within ${limits.uploadUrlMinutes} minutes, and answers 201 {data: {path, src, width, height}} like POST /files.`,
    scope: 'profile:write',
    reply: { 200: DataOf(UploadUrlGrant) },
    errors: [409],
    handler: ({ ctx, principal, dryRun }) => fileUseCases.issueUploadUrl(ctx, principal, { dryRun }),
  }),
])
