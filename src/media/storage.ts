import type { Readable } from 'node:stream'

/** What to store: a file on local disk (streamed, never read whole) or bytes already in memory. */
export type StorageContent = { file: string } | { data: Buffer }

export interface StoredObject {
  body: Readable
  size: number
}

/**
 * Where uploaded files live, addressed by their opaque key (`u<userId>/<random>.<ext>`).
 * Disk under DATA_DIR for one instance; S3-compatible for several behind one address.
 */
export interface Storage {
  readonly kind: 'disk' | 's3'
  put(key: string, content: StorageContent, contentType: string): Promise<void>
  /** The object, or undefined when there is none under `key`. */
  get(key: string): Promise<StoredObject | undefined>
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>
  close(): Promise<void>
}

/**
 * Storage keys the service hands out: uploads, their WebP variants beside them
 * (`u1/<name>.w400.webp`) and their square WebP crops (`u1/<name>.s304.webp`, see
 * SQUARE_SIZES); anything else never reaches a driver. Names are random for uploads stored
 * before crops existed and the SHA-256 of the stored bytes since: both are never reused.
 */
export const STORAGE_KEY = /^u\d{1,12}\/[A-Za-z0-9_-]{16,64}(\.[ws]\d{1,4}\.webp|\.(jpg|png|webp|gif))$/

const stem = (key: string) => key.slice(0, key.lastIndexOf('.'))

/** Whether `key` is made from an upload (a WebP variant or a square crop) rather than an upload. */
export const isDerivedKey = (key: string) => /\.[ws]\d{1,4}\.webp$/.test(key)

/** The key of the `width` px WebP variant of the upload at `key`. */
export const variantKey = (key: string, width: number) => `${stem(key)}.w${width}.webp`

/**
 * The square crops of an upload shown in a circle or as an icon: the avatar at twice
 * its display size (120 px on phones, 152 px on desktop: theme.css), the apple-touch-icon, the
 * favicon.
 * Only these sizes exist, so a request cannot make the server store images of any other size.
 */
export const SQUARE_SIZES = { avatar: 304, phoneAvatar: 240, touchIcon: 180, favicon: 64 } as const
export type SquareSize = (typeof SQUARE_SIZES)[keyof typeof SQUARE_SIZES]

/** The key of the `size` px square WebP crop of the upload at `key`. */
export const squareKey = (key: string, size: SquareSize) => `${stem(key)}.s${size}.webp`

/** Every key a crop of the upload at `key` may be stored under (they are made on first request). */
export const squareKeys = (key: string) => Object.values(SQUARE_SIZES).map((size) => squareKey(key, size))

/** For a square crop's key, its size and the keys its upload may have (one per extension); else undefined. */
export function parseSquareKey(key: string): { size: SquareSize; uploads: string[] } | undefined {
  const match = /^(.+)\.s(\d{1,4})\.webp$/.exec(key)
  const size = match && (Object.values(SQUARE_SIZES) as number[]).includes(Number(match[2])) ? (Number(match[2]) as SquareSize) : undefined
  if (!match || !size) return undefined
  return { size, uploads: Object.keys(CONTENT_TYPES).map((ext) => `${match[1]}.${ext}`) }
}

export const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
}
