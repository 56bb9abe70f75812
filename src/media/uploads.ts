import { createHash, type Hash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { type Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { AppContext } from '../context.ts'
import { AppError, type FieldErrors, invalid, invalidField } from '../kernel/errors.ts'
import { limits } from '../kernel/limits.ts'
import { filesRepository } from '../store/files.ts'
import { publicFileUrl } from './file-url.ts'
import { guardedFetch, UrlRefused } from './guarded-fetch.ts'
import { ImageRejected, processImage } from './image-pipeline.ts'
import { variantKey } from './storage.ts'
import { withTempFile } from './temp-files.ts'
import { ByteLimit } from './byte-limit.ts'

export const MAX_UPLOAD_BYTES = limits.uploadMegabytes * 1024 * 1024
export const MAX_URL_BYTES = limits.uploadFromUrlMegabytes * 1024 * 1024
const MAX_REDIRECTS = 3

/** spec, Files: what an upload answers. */
export interface UploadedFile {
  path: string
  src: string
  width: number
  height: number
}

/** A multipart body read part by part (what the HTTP face's multipart `req.parts()` yields), whatever the face. */
export interface MultipartSource {
  parts(): AsyncIterable<
    | { type: 'file'; fieldname: string; filename: string; mimetype: string; file: Readable & { truncated: boolean } }
    | { type: 'field'; fieldname: string; mimetype: string; value: unknown }
  >
}

export interface UploadOptions {
  /** Precognition: check everything, store nothing. */
  dryRun: boolean
}

const tooLarge = (limit: number) => new AppError('payload_too_large', { message: `The file is larger than ${limit / 1024 / 1024} MB; send a smaller image.` })

/**
 * Validates and processes the file at `file`, then stores it as the user's (unless dry run),
 * with its WebP variants beside it under the same storage driver: objects first, then the rows
 * in one transaction, so a recorded upload always has its objects and its variants.
 */
async function storeImage(ctx: AppContext, userId: number, file: string, field: string, options: UploadOptions): Promise<UploadedFile | undefined> {
  let image: Awaited<ReturnType<typeof processImage>>
  try {
    image = await processImage(file, { variants: !options.dryRun })
  } catch (err) {
    if (err instanceof ImageRejected) throw invalidField(field, err.message)
    throw err
  }
  if (options.dryRun) return undefined
  const { storage } = ctx.media
  const path = `u${userId}/${await contentName(image.data ?? createReadStream(file))}.${image.ext}`
  const variants = image.variants.map((v) => ({ path: variantKey(path, v.width), size: v.data.length, width: v.width, height: v.height, data: v.data }))
  const put: string[] = []
  const removeStored = () =>
    Promise.all(put.map((key) => storage.delete(key).catch((e) => ctx.log.warn({ err: e, path: key }, 'could not remove an unrecorded upload'))))
  try {
    await storage.put(path, image.data ? { data: image.data } : { file }, image.mime)
    put.push(path)
    for (const v of variants) {
      await storage.put(v.path, { data: v.data }, 'image/webp')
      put.push(v.path)
    }
    await filesRepository.insert(
      ctx.db,
      { userId, path, mime: image.mime, size: image.size, width: image.width, height: image.height },
      variants.map(({ data: _, ...v }) => v),
    )
  } catch (err) {
    await removeStored()
    throw err
  }
  return { path, src: publicFileUrl(ctx.config.publicUrl, path), width: image.width, height: image.height }
}

/**
 * The name an upload is stored and served under: the SHA-256 of its stored bytes, so
 * a name always means the same bytes and browsers may keep it for a year (`immutable`), then 6
 * random bytes. Those keep every upload its own file: the same bytes uploaded twice are two
 * uploads, as before, so deleting one (a page, a failed import, the purge) never takes the other.
 */
async function contentName(bytes: Buffer | Readable): Promise<string> {
  const hash = createHash('sha256')
  if (Buffer.isBuffer(bytes)) hash.update(bytes)
  else for await (const chunk of bytes) hash.update(chunk as Buffer)
  return `${hash.digest('base64url')}${randomBytes(6).toString('base64url')}`
}

/** Upload by URL: downloaded through the SSRF guard into a temp file, then the image pipeline. */
async function fromUrl(ctx: AppContext, userId: number, url: string, options: UploadOptions): Promise<UploadedFile | undefined> {
  const media = ctx.media
  return withTempFile(ctx, async (temp) => {
    try {
      await guardedFetch(url, {
        resolve: media.resolve,
        connect: media.connect,
        allowHostPorts: ctx.config.uploadUrlAllowHosts,
        maxBytes: MAX_URL_BYTES,
        timeoutMs: media.urlTimeoutMs,
        maxRedirects: MAX_REDIRECTS,
        destination: temp,
      })
    } catch (err) {
      if (err instanceof UrlRefused) throw invalidField('url', err.message)
      throw err
    }
    return storeImage(ctx, userId, temp, 'url', options)
  })
}

/** A raw request body (PUT to an upload URL), streamed to disk and cut off past 50 MB. */
async function fromStream(
  ctx: AppContext,
  userId: number,
  source: Readable,
  declaredLength: number | undefined,
  options: UploadOptions,
): Promise<UploadedFile | undefined> {
  if (declaredLength !== undefined && declaredLength > MAX_UPLOAD_BYTES) throw tooLarge(MAX_UPLOAD_BYTES)
  return withTempFile(ctx, async (temp) => {
    await pipeline(source, new ByteLimit(MAX_UPLOAD_BYTES, tooLarge), createWriteStream(temp))
    return storeImage(ctx, userId, temp, 'file', options)
  })
}

/** Passes bytes through, adding each to `hash`, followed by their count (so parts cannot run together). */
function hashing(hash: Hash): Transform {
  let length = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      length += chunk.length
      done(null, chunk)
    },
    flush(done) {
      hash.update(`\n${length}\n`)
      done()
    },
  })
}

/**
 * What went wrong reading a multipart body, as the client's problem: the parser's own errors
 * (no boundary, a body that is not multipart, a truncated part, too many parts) carry no status
 * and would otherwise be 500s. Errors of our own disk (they name a system call) stay faults.
 */
function multipartProblem(err: unknown): unknown {
  if (err instanceof AppError || (err as { syscall?: string }).syscall) return err
  const code = (err as { code?: string }).code
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(MAX_UPLOAD_BYTES)
  if (code === 'FST_FILES_LIMIT') return invalidField('file', 'Send one file per request.')
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError('payload_too_large', { message: 'Too many parts: send one part "file" (or one field "url").' })
  }
  const reason = err instanceof Error ? err.message : String(err)
  return new AppError('malformed_request', {
    message: `The multipart body could not be read (${reason}). Send multipart/form-data with a boundary and one part named "file".`,
    cause: err,
  })
}

/**
 * A multipart body: the `file` part streams to disk; with `allowUrl`, a `url` field instead of
 * the file downloads that URL. Exactly one of the two, and no other parts.
 */
async function fromMultipart(
  ctx: AppContext,
  userId: number,
  req: MultipartSource,
  options: UploadOptions & {
    allowUrl: boolean
    /**
     * Runs once the whole body has been read, before anything is fetched or stored, with a
     * SHA-256 of every part (name, file name, type, exact bytes) in order; false stops there.
     */
    beforeStore?: (partsDigest: string) => Promise<boolean>
  },
): Promise<UploadedFile | undefined> {
  return withTempFile(ctx, async (temp) => {
    let hasFile = false
    const digest = createHash('sha256')
    const fields: Record<string, string> = {}
    const problems: FieldErrors = {}
    try {
      for await (const part of req.parts()) {
        // The boundary is the client library's random choice, so a retry of the same upload
        // differs in it; what the parts say and carry does not.
        digest.update(`${JSON.stringify([part.type, part.fieldname, part.type === 'file' ? part.filename : '', part.mimetype])}\n`)
        if (part.type === 'field') digest.update(`${String(part.value)}\n`)
        if (part.type === 'file' && part.fieldname === 'file' && !hasFile) {
          await pipeline(part.file, hashing(digest), createWriteStream(temp))
          if (part.file.truncated) throw tooLarge(MAX_UPLOAD_BYTES)
          hasFile = true
        } else if (part.type === 'file') {
          part.file.resume()
          problems[part.fieldname] = ['Unknown part: send the image as the one part named "file".']
        } else if (part.fieldname === 'url' && options.allowUrl) {
          fields.url = String(part.value)
        } else {
          problems[part.fieldname] = ['Unknown field: remove it.']
        }
      }
    } catch (err) {
      throw multipartProblem(err)
    }
    if (Object.keys(problems).length) throw invalid(problems)
    if (hasFile && fields.url !== undefined) throw invalidField('url', 'Send either the part "file" or a url, not both.')
    if (options.beforeStore && !(await options.beforeStore(digest.digest('hex')))) return undefined
    if (fields.url !== undefined) {
      if (fields.url.length > 2048) throw invalidField('url', 'Must be at most 2048 characters.')
      return fromUrl(ctx, userId, fields.url, options)
    }
    if (!hasFile) throw invalidField('file', 'Send the image as a multipart part named "file" (or JSON {url}).')
    return storeImage(ctx, userId, temp, 'file', options)
  })
}

export const uploadService = Object.freeze({ fromUrl, fromStream, fromMultipart })
