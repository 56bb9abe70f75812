import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { type Config, ConfigError } from '../config.ts'
import { type BackupFacts, BACKUP_FORMAT, FILES_TABLE, MANIFEST_TABLE, SECRET_FILE, STORE_FILE, storageFor } from './backup-file.ts'

export interface RestoreResult {
  facts: BackupFacts
  files: number
}

/**
 * Puts a backup (sqlite-backup.ts) back into an empty DATA_DIR: the store, its uploads (into
 * DATA_DIR/files, or the configured bucket) and the generated secret. Every upload is checked
 * against the manifest's size and SHA-256 first; the store file appears under its real name only
 * once everything else is in place, so a failed restore never looks like a usable DATA_DIR.
 */
export async function restoreSqliteStore(config: Config, from: string): Promise<RestoreResult> {
  if (config.databaseUrl) {
    throw new ConfigError('DATABASE_URL', 'restore puts back a SQLite store; on PostgreSQL use pg_restore (README, "Backups"). Unset DATABASE_URL.')
  }
  if (!existsSync(from)) throw new ConfigError('--from', `${from} does not exist.`)
  if (existsSync(config.dataDir) && readdirSync(config.dataDir).length > 0) {
    throw new ConfigError('DATA_DIR', `${config.dataDir} is not empty; restore only into an empty or new directory, so nothing is mixed or overwritten.`)
  }
  const backup = new SQLite(from, { readonly: true, fileMustExist: true })
  try {
    const { facts, secret } = readManifest(backup, from)
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
    const restoring = join(config.dataDir, `${STORE_FILE}.restoring`)
    try {
      await backup.backup(restoring)
      const files = await restoreUploads(config, backup)
      finishStore(restoring)
      if (secret) writeFileSync(join(config.dataDir, SECRET_FILE), secret, { mode: 0o600 })
      renameSync(restoring, join(config.dataDir, STORE_FILE))
      return { facts, files }
    } catch (err) {
      // The directory was empty: leave it so again.
      for (const name of readdirSync(config.dataDir)) rmSync(join(config.dataDir, name), { recursive: true, force: true })
      throw err
    }
  } finally {
    backup.close()
  }
}

function readManifest(backup: SQLite.Database, from: string): { facts: BackupFacts; secret: string | null } {
  const table = backup.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?").pluck()
  if (!table.get(MANIFEST_TABLE) || !table.get(FILES_TABLE)) {
    throw new ConfigError('--from', `${from} is not a Slotline backup (made by \`cli backup --to FILE\`).`)
  }
  const row = backup.prepare(`SELECT facts, secret FROM ${MANIFEST_TABLE}`).get() as { facts: string; secret: string | null }
  const facts = JSON.parse(row.facts) as BackupFacts
  if (facts.format !== BACKUP_FORMAT) throw new ConfigError('--from', `${from} has backup format ${facts.format}; this version reads format ${BACKUP_FORMAT}.`)
  return { facts, secret: row.secret }
}

async function restoreUploads(config: Config, backup: SQLite.Database): Promise<number> {
  const storage = storageFor(config)
  let count = 0
  try {
    const rows = backup.prepare(`SELECT path, mime, size, sha256, content FROM ${FILES_TABLE} WHERE content IS NOT NULL ORDER BY path`)
    for (const row of rows.iterate() as Iterable<{ path: string; mime: string; size: number; sha256: string; content: Buffer }>) {
      const digest = createHash('sha256').update(row.content).digest('hex')
      if (row.content.length !== row.size || digest !== row.sha256) {
        throw new Error(`The backup's copy of ${row.path} does not match its manifest (size or SHA-256): the backup file is damaged.`)
      }
      await storage.put(row.path, { data: row.content }, row.mime)
      count++
    }
    return count
  } finally {
    await storage.close()
  }
}

/** The restored store without the backup's own tables, in the service's journal mode, owner-only. */
function finishStore(file: string): void {
  const db = new SQLite(file)
  try {
    db.exec(`DROP TABLE ${FILES_TABLE}; DROP TABLE ${MANIFEST_TABLE}`)
    db.exec('VACUUM')
    db.pragma('journal_mode = WAL')
  } finally {
    db.close()
  }
  chmodSync(file, 0o600)
}
