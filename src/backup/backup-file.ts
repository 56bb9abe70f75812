import { join } from 'node:path'
import type { Config } from '../config.ts'
import { diskStorage } from '../media/disk-storage.ts'
import { s3Storage } from '../media/s3-storage.ts'
import type { Storage } from '../media/storage.ts'

/**
 * A backup is one SQLite file: an online copy of the store, plus two tables of its own, so it
 * needs no archive format and opens with any SQLite tool. `slotline_backup` holds one row of
 * facts, `slotline_backup_files` every upload the copied `files` table names (the manifest),
 * with its bytes and their SHA-256. Restore drops both tables from the store it puts back.
 */
export const BACKUP_FORMAT = 1
export const MANIFEST_TABLE = 'slotline_backup'
export const FILES_TABLE = 'slotline_backup_files'

export const STORE_FILE = 'slotline.db'
export const SECRET_FILE = 'secret.key'

export interface BackupFacts {
  format: number
  createdAt: string
  /** The newest migration of the copied store. */
  migration: string | null
  files: number
  bytes: number
  /** Files the store names whose stored object was missing when the backup ran. */
  missing: number
  /** Whether DATA_DIR/secret.key (visitor keys, upload URLs) travels with the backup. */
  hasSecret: boolean
}

/** Where uploads live under this configuration: the bucket, or DATA_DIR/files. */
export const storageFor = (config: Config): Storage => (config.s3 ? s3Storage(config.s3) : diskStorage(join(config.dataDir, 'files')))
