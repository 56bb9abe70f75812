import { Type } from '@sinclair/typebox'
import { invalidField } from '../core/errors.ts'
import { claimAfterBody } from '../http/idempotency.ts'
import { route, routes } from '../http/routes.ts'
import { Nullable } from '../core/schemas.ts'
import { DataOf } from '../http/schemas.ts'
import { limits } from '../limits.ts'
import { fileUseCases } from '../core/file-use-cases.ts'

export const UploadFromUrl = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        description: `An http(s) image URL on a default port; downloaded by the server (at most ${limits.uploadFromUrlMegabytes} MB within ${limits.uploadFromUrlTimeoutSeconds} s). Private network addresses are refused.`,
        examples: ['https://example.com/avatar.png'],
      }),
    ),
  },
  { additionalProperties: false },
)

export const UploadedFile = Type.Object(
  {
    path: Type.String({ description: 'Opaque file path: what avatar, bgImage, picture and gallery items take.', examples: ['u7/3q2-9xkTb4rQd1Yc0w5ZPg.webp'] }),
    src: Type.String({ format: 'uri', description: 'Public URL of the stored image.' }),
    width: Nullable(Type.Integer({ description: 'Width of the stored image in pixels.' })),
    height: Nullable(Type.Integer({ description: 'Height of the stored image in pixels.' })),
  },
  { additionalProperties: false },
)

export const UploadUrlGrant = Type.Object(
  {
    upload_url: Type.String({ format: 'uri', description: 'Send the image here without a token: PUT raw bytes, or POST a multipart part "file".' }),
    method: Type.Literal('PUT'),
    max_bytes: Type.Integer({ description: 'Largest accepted body in bytes.' }),
    expires_at: Type.String({ format: 'date-time', description: 'The URL stops working at this time (15 minutes after issue); it takes one upload.' }),
  },
  { additionalProperties: false },
)

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
