import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { AppContext } from '../context.ts'
import { filesRepository, type StoredFile } from '../store/files.ts'
import { mediaOf } from './media.ts'

export interface PurgeResult {
  removed: StoredFile[]
  /** Rows removed whose stored object could not be deleted (left behind, unreachable). */
  failed: Array<{ path: string; error: string }>
}

/** Removes uploads older than `olderThanMs` that no profile or slot references (rows, then objects). */
export async function purgeUnusedFiles(ctx: AppContext, olderThanMs: number, now = Date.now()): Promise<PurgeResult> {
  const before = new Date(now - olderThanMs).toISOString()
  // Rows first: once the row is gone no new reference can pass the ownership check, so the
  // object can go without a race against a slot being saved.
  const removed = await filesRepository.deleteUnusedBefore(ctx.db, before)
  const failed: PurgeResult['failed'] = []
  const { storage } = mediaOf(ctx)
  for (const file of removed) {
    try {
      await storage.delete(file.path)
    } catch (err) {
      failed.push({ path: file.path, error: (err as Error).message })
    }
  }
  return { removed, failed }
}

// An upload lives in DATA_DIR/tmp for seconds; one an hour old was left by a process that died.
const STALE_TEMP_MS = 3600_000

/** Removes temp uploads a crashed process left behind; returns their names. */
export async function purgeStaleTempFiles(ctx: AppContext, now = Date.now()): Promise<string[]> {
  const dir = join(ctx.config.dataDir, 'tmp')
  const names = await readdir(dir).catch(() => [] as string[])
  const removed: string[] = []
  for (const name of names) {
    const path = join(dir, name)
    const info = await stat(path).catch(() => undefined)
    if (info?.isFile() && info.mtimeMs < now - STALE_TEMP_MS) {
      await rm(path, { force: true })
      removed.push(name)
    }
  }
  return removed
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3600_000, d: 86_400_000, w: 604_800_000 }

/** `7d`, `12h`, `30m`, `2w`, `90s` → milliseconds; undefined for anything else. */
export function parseAge(text: string): number | undefined {
  const match = /^(\d{1,6})([smhdw])$/.exec(text.trim())
  return match ? Number(match[1]) * UNITS[match[2]] : undefined
}
