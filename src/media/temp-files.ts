import { randomBytes } from 'node:crypto'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { AppContext } from '../context.ts'

/**
 * Runs `fn` with a fresh path under DATA_DIR/tmp and removes the file afterwards, whatever
 * happened. Uploads land there first so that no upload is ever held whole in memory.
 */
export async function withTempFile<T>(ctx: AppContext, fn: (path: string) => Promise<T>): Promise<T> {
  const dir = join(ctx.config.dataDir, 'tmp')
  await mkdir(dir, { recursive: true })
  const path = join(dir, `upload-${randomBytes(12).toString('hex')}`)
  try {
    return await fn(path)
  } finally {
    await rm(path, { force: true })
  }
}
