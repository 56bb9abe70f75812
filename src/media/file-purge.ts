import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { AppContext } from '../context.ts'
import { schedulePeriodic } from '../jobs/periodic-job.ts'
import { filesRepository, type StoredFile } from '../store/files.ts'

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
  const { storage } = ctx.media
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

const DAY_MS = 86_400_000

/**
 * How old an unused upload must be before the daily purge takes it. Uploading and attaching are
 * two requests, and nothing says how far apart: a client may upload now and save the page next
 * week (a draft in an editor, an upload URL handed to someone else). An upload is never taken
 * from under its owner because they were slow, so the cut sits a month back; the CLI can go
 * shorter when an operator decides to.
 */
export const UNUSED_UPLOAD_MIN_AGE_MS = 30 * DAY_MS

export const FILE_PURGE_JOB = 'file-purge'

/**
 * Once a day in the whole fleet: stale temp uploads, and uploads nothing references that are
 * older than UNUSED_UPLOAD_MIN_AGE_MS. What went is logged with its count and bytes; objects the
 * storage would not delete are logged at error by path (their rows are gone, so no later run
 * would find them again); any other failure reaches the scheduler, which logs it at error.
 */
export function scheduleFilePurge(ctx: AppContext): void {
  schedulePeriodic(ctx, {
    name: FILE_PURGE_JOB,
    everyMs: DAY_MS,
    // Not a day after start: instances restarted more often than daily (each deploy) would never get to it.
    firstAfterMs: 60_000,
    run: async () => {
      // Each half runs even when the other fails: a broken tmp directory must not keep unused
      // uploads in the bucket forever, nor a database fault leave the disk filling with temp files.
      const [files, temp] = await Promise.allSettled([purgeUnusedFiles(ctx, UNUSED_UPLOAD_MIN_AGE_MS), purgeStaleTempFiles(ctx)])
      const outcome: Record<string, unknown> = {}
      if (files.status === 'fulfilled') {
        const { removed, failed } = files.value
        if (removed.length) Object.assign(outcome, { removed: removed.length, bytes: removed.reduce((sum, f) => sum + f.size, 0) })
        if (failed.length) {
          ctx.log.error(
            { job: FILE_PURGE_JOB, failed },
            `${FILE_PURGE_JOB}: ${failed.length} stored object(s) could not be deleted; their rows are gone, delete them by hand`,
          )
        }
      }
      if (temp.status === 'fulfilled' && temp.value.length) outcome.tempRemoved = temp.value.length
      const errors = [files, temp].flatMap((r) => (r.status === 'rejected' ? [r.reason] : []))
      if (!errors.length) return outcome
      if (Object.keys(outcome).length) ctx.log.info({ job: FILE_PURGE_JOB, ...outcome }, `${FILE_PURGE_JOB}: done in part`)
      throw errors.length === 1 ? errors[0] : new AggregateError(errors, 'both the unused-upload and the temp-file purge failed')
    },
  })
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3600_000, d: 86_400_000, w: 604_800_000 }

/** `7d`, `12h`, `30m`, `2w`, `90s` → milliseconds; undefined for anything else. */
export function parseAge(text: string): number | undefined {
  const match = /^(\d{1,6})([smhdw])$/.exec(text.trim())
  return match ? Number(match[1]) * UNITS[match[2]] : undefined
}
