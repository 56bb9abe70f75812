import type { Readable } from 'node:stream'
import { Type } from '@sinclair/typebox'
import { type Principal, requireAbility } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { type UploadUrlGrant as IssuedUploadUrl, uploadGrants } from '../media/upload-grant-service.ts'
import { type MultipartSource, type UploadedFile as StoredUpload, uploadService } from '../media/uploads.ts'
import { limits } from '../kernel/limits.ts'
import { Nullable } from '../kernel/schema-helpers.ts'
import { type WriteOptions, writeAccount } from './unit-of-work.ts'

// The shapes of the file use cases, which the API's rows and the MCP tools derive theirs from.
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

/** What a face received: a URL to download, a multipart body (part "file" or field "url"), or raw bytes. */
export type UploadInput =
  | { url: string }
  | {
      multipart: MultipartSource
      /** Runs once every part has been read, before anything is fetched or stored; false stops there (HTTP idempotency). */
      beforeStore?: (partsDigest: string) => Promise<boolean>
    }
  | { stream: Readable; length?: number }

/**
 * spec, POST /files: the image through the pipeline, stored as the principal's. No transaction:
 * downloads and image work must not hold one open. A dry run checks everything, stores nothing
 * and answers undefined.
 */
async function upload(ctx: AppContext, principal: Principal, input: UploadInput, options: WriteOptions = {}): Promise<StoredUpload | undefined> {
  requireAbility(principal, 'profile:write')
  const dryRun = options.dryRun ?? false
  const userId = principal.user.id
  if ('url' in input) return uploadService.fromUrl(ctx, userId, input.url, { dryRun })
  if ('multipart' in input) return uploadService.fromMultipart(ctx, userId, input.multipart, { dryRun, allowUrl: true, beforeStore: input.beforeStore })
  return uploadService.fromStream(ctx, userId, input.stream, input.length, { dryRun })
}

/** spec, POST /files/upload-url: a signed single-use URL a client without the token can upload to. */
async function issueUploadUrl(ctx: AppContext, principal: Principal, options: WriteOptions = {}): Promise<IssuedUploadUrl> {
  return writeAccount(ctx, principal, options, (trx) => uploadGrants.issue(ctx, trx, principal.user.id))
}

export const fileUseCases = Object.freeze({ upload, issueUploadUrl })
