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
 * Storage keys the service hands out: uploads, and their WebP variants beside them
 * (`u1/<random>.w400.webp`); anything else never reaches a driver.
 */
export const STORAGE_KEY = /^u\d{1,12}\/[A-Za-z0-9_-]{16,64}(\.w\d{1,4}\.webp|\.(jpg|png|webp|gif))$/

/** The key of the `width` px WebP variant of the upload at `key`. */
export const variantKey = (key: string, width: number) => `${key.slice(0, key.lastIndexOf('.'))}.w${width}.webp`

export const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
}
