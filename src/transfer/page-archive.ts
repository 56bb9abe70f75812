import type * as Fflate from 'fflate'
import { onFirstUse } from '../kernel/on-first-use.ts'
import { AppError, invalidField } from '../kernel/errors.ts'

const fflate = onFirstUse<typeof Fflate>('fflate')

/**
 * Hostile files: what a page archive may be. A page has at most 500 slots and its
 * images are uploads of at most 50 MB, so anything past these is not a page but an attack or a
 * mistake, and is refused before it costs memory.
 */
export const ARCHIVE_LIMITS = Object.freeze({
  /** The body itself (POST /v1/profiles/import). */
  maxArchiveBytes: 64 * 1024 * 1024,
  /** Entries, directories included: page.json and one image per use is far below. */
  maxEntries: 1000,
  maxEntryBytes: 50 * 1024 * 1024,
  maxTotalBytes: 128 * 1024 * 1024,
  maxDocumentBytes: 4 * 1024 * 1024,
  /** Inflated / compressed, checked once an entry is past `ratioFloorBytes` (images hardly compress; JSON ~10×). */
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
})

export type ArchiveLimits = typeof ARCHIVE_LIMITS

const CHUNK = 64 * 1024

/** Why an entry name cannot be used, or undefined when it can. */
function nameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 255) return 'has an empty or overlong name'
  if (name.includes('\0') || name.includes('\\')) return 'has a NUL or backslash in its name'
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'is an absolute path'
  if (name.split('/').some((part) => part === '..' || part === '.')) return 'climbs out of the archive with ../ or ./'
  return undefined
}

const tooLarge = (message: string) => new AppError('payload_too_large', { message })
const refused = (message: string) => invalidField('archive', message)

/**
 * The entries of a zip, read with every limit of ARCHIVE_LIMITS enforced while inflating (the
 * sizes a header declares are not trusted): names that climb out or are absolute, duplicates,
 * too many entries, too much data, a suspicious ratio, a damaged stream. Directory entries are
 * dropped. Throws a 422 (or 413 for sizes) naming the entry; nothing is written anywhere.
 */
export function readArchive(bytes: Uint8Array, limits: ArchiveLimits = ARCHIVE_LIMITS): Map<string, Uint8Array> {
  if (bytes.length > limits.maxArchiveBytes) throw tooLarge(`The archive is larger than ${limits.maxArchiveBytes / 1024 / 1024} MB.`)
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b)
    throw refused('This is not a zip archive: send the file an export answered, or page.json as application/json.')
  const entries = new Map<string, Uint8Array>()
  const seen = new Set<string>()
  let count = 0
  let total = 0
  let problem: AppError | undefined
  const unzip = new (fflate().Unzip)((file) => {
    if (problem) return
    count++
    if (count > limits.maxEntries) {
      problem = refused(`The archive has more than ${limits.maxEntries} entries; a page archive has page.json and its images.`)
      return
    }
    const why = nameProblem(file.name)
    if (why) {
      problem = refused(`The entry "${file.name.slice(0, 200)}" ${why}.`)
      return
    }
    if (seen.has(file.name)) {
      problem = refused(`The entry "${file.name}" appears more than once.`)
      return
    }
    seen.add(file.name)
    if (file.name.endsWith('/')) return
    if (file.originalSize !== undefined && file.originalSize > limits.maxEntryBytes) {
      problem = tooLarge(`The entry "${file.name}" declares ${file.originalSize} bytes; an entry may hold at most ${limits.maxEntryBytes}.`)
      return
    }
    const chunks: Uint8Array[] = []
    let size = 0
    file.ondata = (err, chunk, final) => {
      if (problem) return
      if (err) {
        problem = refused(`The entry "${file.name}" could not be inflated: ${err.message}.`)
        return
      }
      size += chunk.length
      total += chunk.length
      const ratioCap = file.size ? Math.max(file.size * limits.maxRatio, limits.ratioFloorBytes) : Number.POSITIVE_INFINITY
      if (size > limits.maxEntryBytes || size > ratioCap) {
        problem = tooLarge(
          `The entry "${file.name}" inflates past ${size > ratioCap ? `${limits.maxRatio} times its compressed size` : `${limits.maxEntryBytes} bytes`}: refused as a zip bomb.`,
        )
        file.terminate()
        return
      }
      if (total > limits.maxTotalBytes || total > Math.max(bytes.length * limits.maxRatio, limits.ratioFloorBytes)) {
        problem = tooLarge(`The archive inflates past ${limits.maxTotalBytes} bytes or ${limits.maxRatio} times its size: refused as a zip bomb.`)
        file.terminate()
        return
      }
      chunks.push(chunk)
      if (final) entries.set(file.name, concat(chunks, size))
    }
    file.start()
  })
  unzip.register(fflate().UnzipInflate)
  try {
    for (let at = 0; at < bytes.length && !problem; at += CHUNK) unzip.push(bytes.subarray(at, at + CHUNK), at + CHUNK >= bytes.length)
  } catch (err) {
    if (!problem) problem = refused(`The archive is damaged: ${(err as Error).message}.`)
  }
  if (problem) throw problem
  return entries
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/** A zip of `entries`; images are stored as they are (they do not compress), JSON deflated. */
export function writeArchive(entries: Array<{ name: string; data: Uint8Array }>): Uint8Array {
  const tree: Record<string, [Uint8Array, { level: 0 | 6 }]> = {}
  for (const e of entries) tree[e.name] = [e.data, { level: e.name.endsWith('.json') ? 6 : 0 }]
  // A fixed time: the same page exports to the same bytes.
  return fflate().zipSync(tree, { mtime: new Date('2000-01-01T00:00:00Z') })
}
