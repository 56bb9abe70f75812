import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { STORAGE_KEY, type Storage } from './storage.ts'

/** Files under `root` (DATA_DIR/files), one file per key; writes appear whole or not at all. */
export function diskStorage(root: string): Storage {
  const base = resolve(root)
  const pathOf = (key: string) => {
    // Keys are checked by the caller; this is the second lock on the door.
    const full = resolve(join(base, key))
    if (!STORAGE_KEY.test(key) || !full.startsWith(base + sep)) throw new Error(`Not a storage key: ${key}`)
    return full
  }
  return {
    kind: 'disk',
    async put(key, content) {
      const target = pathOf(key)
      await mkdir(dirname(target), { recursive: true })
      const part = `${target}.${randomBytes(4).toString('hex')}.part`
      try {
        if ('file' in content) await copyFile(content.file, part)
        else await writeFile(part, content.data)
        await rename(part, target)
      } catch (err) {
        await rm(part, { force: true })
        throw err
      }
    },
    async get(key) {
      const path = pathOf(key)
      try {
        const { size } = await stat(path)
        return { body: createReadStream(path), size }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw err
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
    async close() {},
  }
}
