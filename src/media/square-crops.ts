import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { squareWebp } from './image-pipeline.ts'
import { isDerivedKey, parseSquareKey, squareKeys, STORAGE_KEY, type Storage, type StoredObject } from './storage.ts'

/**
 * The object at `key`; a square crop not stored yet is made from its upload and stored first.
 * Crops are made on first request rather than at upload, so uploads stored before crops existed
 * (avatars and covers already on pages) get theirs the first time a page asks, with no job to
 * run; later requests read the stored crop like any other file.
 */
export async function getOrMakeSquare(storage: Storage, key: string): Promise<StoredObject | undefined> {
  const stored = await storage.get(key)
  const square = stored ? undefined : parseSquareKey(key)
  if (!square) return stored
  for (const upload of square.uploads) {
    const original = await storage.get(upload)
    if (!original) continue
    const data = await squareWebp(await buffer(original.body), square.size)
    await storage.put(key, { data }, 'image/webp')
    return { body: Readable.from([data]), size: data.length }
  }
  return undefined
}

/**
 * `storage` whose delete of an upload also deletes its square crops: they have no rows of their
 * own, so every caller that removes an upload's object (purge, page and account deletion,
 * import) removes them too without knowing they exist.
 */
export function withSquareCrops(storage: Storage): Storage {
  return {
    kind: storage.kind,
    put: (key, content, type) => storage.put(key, content, type),
    get: (key) => storage.get(key),
    async delete(key) {
      await storage.delete(key)
      if (STORAGE_KEY.test(key) && !isDerivedKey(key)) await Promise.all(squareKeys(key).map((k) => storage.delete(k)))
    },
    close: () => storage.close(),
  }
}
