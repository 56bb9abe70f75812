import type { Readable } from 'node:stream'
import { type Principal, requireAbility } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { type UploadUrlGrant, uploadGrants } from '../media/upload-grants.ts'
import { type MultipartSource, type UploadedFile, uploadService } from '../media/uploads.ts'
import { type WriteOptions, writeAccount } from './unit-of-work.ts'

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
async function upload(ctx: AppContext, principal: Principal, input: UploadInput, options: WriteOptions = {}): Promise<UploadedFile | undefined> {
  requireAbility(principal, 'profile:write')
  const dryRun = options.dryRun ?? false
  const userId = principal.user.id
  if ('url' in input) return uploadService.fromUrl(ctx, userId, input.url, { dryRun })
  if ('multipart' in input) return uploadService.fromMultipart(ctx, userId, input.multipart, { dryRun, allowUrl: true, beforeStore: input.beforeStore })
  return uploadService.fromStream(ctx, userId, input.stream, input.length, { dryRun })
}

/** spec, POST /files/upload-url: a signed single-use URL a client without the token can upload to. */
async function issueUploadUrl(ctx: AppContext, principal: Principal, options: WriteOptions = {}): Promise<UploadUrlGrant> {
  return writeAccount(ctx, principal, options, (trx) => uploadGrants.issue(ctx, trx, principal.user.id))
}

export const fileUseCases = Object.freeze({ upload, issueUploadUrl })
