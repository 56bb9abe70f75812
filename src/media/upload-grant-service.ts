import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { AppContext } from '../context.ts'
import { AppError } from '../kernel/errors.ts'
import { limits } from '../kernel/limits.ts'
import type { Db } from '../store/db.ts'
import { uploadGrantsRepository } from '../store/upload-grants.ts'
import { MAX_UPLOAD_BYTES } from './uploads.ts'

/** spec, Files: the upload-url answer; snake_case keys by the spec's own exception. */
export interface UploadUrlGrant {
  upload_url: string
  method: 'PUT'
  max_bytes: number
  expires_at: string
}

export interface SignerOptions {
  now: () => number
  lifetimeMs: number
}

// `-` is a first path segment no login can take (profiles/logins.ts reserves it), so this never shadows a page.
export const UPLOAD_PATH = '/-/upload'

/**
 * Signed upload URL tokens: `<grant id>.<expiry, unix seconds>.<HMAC-SHA256>`. The signature
 * makes a forged or edited URL fail before the database is asked; the grant row makes it
 * single-use.
 */
export function uploadUrlSigner(secret: Buffer, options: SignerOptions) {
  const mac = (id: string, exp: number) => createHmac('sha256', secret).update(`slotline-upload-url\n${id}\n${exp}`).digest()
  return {
    now: options.now,
    issue(): { id: string; token: string; expiresAt: Date } {
      const id = randomBytes(18).toString('base64url')
      const exp = Math.floor((options.now() + options.lifetimeMs) / 1000)
      return { id, token: `${id}.${exp}.${mac(id, exp).toString('base64url')}`, expiresAt: new Date(exp * 1000) }
    },
    /** The grant id of a genuine, unexpired token; a 403 saying what is wrong otherwise. */
    verify(token: string): string {
      // One spelling per token: an expiry with leading zeros would sign the same grant twice over.
      const match = /^([A-Za-z0-9_-]{24})\.([1-9]\d{0,11})\.([A-Za-z0-9_-]{43})$/.exec(token)
      const given = match ? Buffer.from(match[3], 'base64url') : undefined
      const expected = match ? mac(match[1], Number(match[2])) : undefined
      if (!match || !given || !expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new AppError('forbidden', { message: 'This upload URL is not valid. Request a new one with {{files.issueUploadUrl}}.' })
      }
      if (Number(match[2]) * 1000 <= options.now()) {
        throw new AppError('forbidden', { message: 'This upload URL has expired. Request a new one with {{files.issueUploadUrl}}.' })
      }
      return match[1]
    },
  }
}

const signerOf = (ctx: AppContext) => uploadUrlSigner(ctx.secret, { now: ctx.media.now, lifetimeMs: limits.uploadUrlMinutes * 60_000 })

/** Issues a signed single-use upload URL for the user, recorded in `db`. */
async function issue(ctx: AppContext, db: Db, userId: number): Promise<UploadUrlGrant> {
  const signer = signerOf(ctx)
  const { id, token, expiresAt } = signer.issue()
  const now = new Date(signer.now())
  // Long-expired grants are dead weight; dropping them here keeps the table small without a job.
  await uploadGrantsRepository.deleteExpired(db, new Date(now.getTime() - 24 * 3600_000).toISOString())
  await uploadGrantsRepository.insert(db, { id, userId, expiresAt: expiresAt.toISOString(), createdAt: now.toISOString() })
  return {
    upload_url: `${ctx.config.publicUrl}${UPLOAD_PATH}/${token}`,
    method: 'PUT',
    max_bytes: MAX_UPLOAD_BYTES,
    expires_at: expiresAt.toISOString(),
  }
}

/** Checks the token and takes the grant (once, across instances). Returns the grant id and owner. */
async function redeem(ctx: AppContext, token: string): Promise<{ id: string; userId: number }> {
  const signer = signerOf(ctx)
  const id = signer.verify(token)
  const userId = await uploadGrantsRepository.consume(ctx.db, id, new Date(signer.now()).toISOString())
  if (userId === undefined) {
    const grant = await uploadGrantsRepository.find(ctx.db, id)
    throw new AppError('forbidden', {
      message: grant?.usedAt
        ? 'This upload URL has already been used; each URL takes one upload. Request a new one with {{files.issueUploadUrl}}.'
        : 'This upload URL is no longer valid. Request a new one with {{files.issueUploadUrl}}.',
    })
  }
  return { id, userId }
}

/** The upload a grant carried was refused: let the same URL be tried again until it expires. */
async function giveBack(ctx: AppContext, id: string): Promise<void> {
  await uploadGrantsRepository.release(ctx.db, id)
}

export const uploadGrants = Object.freeze({ issue, redeem, giveBack })
