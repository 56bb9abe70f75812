import { createHash } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { type Config, ConfigError } from '../config.ts'
import { type BackupFacts, BACKUP_FORMAT, FILES_TABLE, MANIFEST_TABLE, SECRET_FILE, STORE_FILE, storageFor } from './backup-file.ts'

/**
 * Copies a live SQLite store and its uploads into one backup file (`backup-file.ts` says what is
 * in it). The copy is SQLite's online backup on a connection of its own: the running service
 * keeps reading and writing, and the copy is the store as of one instant. The uploads are those
 * the copied `files` table names, read from storage after the copy; an object deleted in between
 * (a purge) is counted as missing rather than failing the backup.
 */
export async function backupSqliteStore(config: Config, to: string, log: (line: string) => void = () => {}): Promise<BackupFacts> {
  if (config.databaseUrl) {
    throw new ConfigError('DATABASE_URL', 'backup copies a SQLite store; on PostgreSQL use pg_dump (README, "Backups").')
  }
  const source = join(config.dataDir, STORE_FILE)
  if (!existsSync(source)) throw new ConfigError('DATA_DIR', `no store to back up: ${source} does not exist.`)
  if (existsSync(to)) throw new ConfigError('--to', `${to} exists already; a backup never overwrites a file.`)
  const part = `${to}.part`
  rmSync(part, { force: true })
  try {
    const live = new SQLite(source, { readonly: true, fileMustExist: true })
    try {
      // Pages are copied in one step after the first (the default is 100 per step): a write by
      // the service between two steps restarts an online backup, so small steps under steady
      // writes might never finish. A WAL reader holds no lock that would stop the service.
      await live.backup(part, { progress: () => 1 << 30 })
    } finally {
      live.close()
    }
    chmodSync(part, 0o600)
    const facts = await addUploads(config, part, log)
    renameSync(part, to)
    return facts
  } catch (err) {
    rmSync(part, { force: true })
    throw err
  }
}

async function addUploads(config: Config, file: string, log: (line: string) => void): Promise<BackupFacts> {
  const copy = new SQLite(file)
  const storage = storageFor(config)
  try {
    // One self-contained file: no -wal beside it.
    copy.pragma('journal_mode = DELETE')
    copy.exec(`CREATE TABLE ${FILES_TABLE} (path TEXT PRIMARY KEY, mime TEXT NOT NULL, size INTEGER NOT NULL, sha256 TEXT, content BLOB)`)
    copy.exec(`CREATE TABLE ${MANIFEST_TABLE} (facts TEXT NOT NULL, secret TEXT)`)
    const rows = copy.prepare('SELECT path, mime, size FROM files ORDER BY path').all() as Array<{ path: string; mime: string; size: number }>
    const insert = copy.prepare(`INSERT INTO ${FILES_TABLE} (path, mime, size, sha256, content) VALUES (?, ?, ?, ?, ?)`)
    let bytes = 0
    let missing = 0
    for (const row of rows) {
      const content = await readObject(storage, row.path)
      if (!content) {
        missing++
        log(`warning: ${row.path} is named by the store but has no stored object; it is listed without content`)
        insert.run(row.path, row.mime, row.size, null, null)
        continue
      }
      bytes += content.length
      insert.run(row.path, row.mime, content.length, createHash('sha256').update(content).digest('hex'), content)
    }
    const secretFile = join(config.dataDir, SECRET_FILE)
    // SECRET_KEY from the environment stays where the operator keeps it; a generated key is part of the data.
    const secret = !config.secret && existsSync(secretFile) ? readFileSync(secretFile, 'utf8').trim() : null
    const migration = copy.prepare('SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1').pluck().get() as string | undefined
    const facts: BackupFacts = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      migration: migration ?? null,
      files: rows.length - missing,
      bytes,
      missing,
      hasSecret: secret !== null,
    }
    copy.prepare(`INSERT INTO ${MANIFEST_TABLE} (facts, secret) VALUES (?, ?)`).run(JSON.stringify(facts), secret)
    return facts
  } finally {
    copy.close()
    await storage.close()
  }
}

async function readObject(storage: ReturnType<typeof storageFor>, path: string): Promise<Buffer | undefined> {
  const found = await storage.get(path)
  if (!found) return undefined
  const chunks: Buffer[] = []
  for await (const chunk of found.body) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
