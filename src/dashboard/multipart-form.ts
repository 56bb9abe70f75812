import type { FastifyRequest } from 'fastify'
import { AppError } from '../kernel/errors.ts'
import { limits } from '../kernel/limits.ts'

const MAX_FILES = 31

// req.files is @fastify/multipart's own method; the files of a read form are kept beside the request.
const filesOfRequest = new WeakMap<FastifyRequest, Record<string, Buffer>>()

/** The files readMultipart kept for this request (none for a urlencoded form). */
export const formFiles = (req: FastifyRequest): Record<string, Buffer> => filesOfRequest.get(req) ?? {}
const MAX_FIELDS = 2000

/**
 * A dashboard form sent as multipart/form-data (it has file pickers): its fields become the body,
 * as a urlencoded form's would (a repeated name becomes an array), and its files are kept in
 * memory by field name. A picker left empty sends an empty part, which is left out.
 */
export async function readMultipart(req: FastifyRequest): Promise<void> {
  if (!req.isMultipart()) return
  const body: Record<string, string | string[]> = Object.create(null)
  const files: Record<string, Buffer> = Object.create(null)
  const maxBytes = limits.uploadMegabytes * 1024 * 1024
  let total = 0
  try {
    for await (const part of req.parts({
      limits: { files: MAX_FILES, fields: MAX_FIELDS, fileSize: maxBytes, parts: MAX_FILES + MAX_FIELDS, fieldSize: 64 * 1024 },
    })) {
      if (part.type === 'file') {
        const chunks: Buffer[] = []
        for await (const chunk of part.file) {
          total += chunk.length
          if (total > maxBytes) throw new AppError('payload_too_large', { message: `Send at most ${limits.uploadMegabytes} MB of images at once.` })
          chunks.push(chunk)
        }
        if (part.file.truncated) throw new AppError('payload_too_large', { message: `An image may be at most ${limits.uploadMegabytes} MB.` })
        const bytes = Buffer.concat(chunks)
        if (bytes.length && part.filename) files[part.fieldname] = bytes
        continue
      }
      const value = String(part.value)
      const before = body[part.fieldname]
      body[part.fieldname] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value]
    }
  } catch (err) {
    if (err instanceof AppError) throw err
    throw new AppError('payload_too_large', { message: 'This form is too large: send fewer or smaller images.', cause: err })
  }
  req.body = body
  filesOfRequest.set(req, files)
}
