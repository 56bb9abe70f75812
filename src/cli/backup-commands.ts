import { resolve } from 'node:path'
import { backupSqliteStore } from '../backup/sqlite-backup.ts'
import { restoreSqliteStore } from '../backup/sqlite-restore.ts'
import { defineCommand } from './command.ts'

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`

export const backup = defineCommand({
  name: 'backup',
  summary: 'Copy the live SQLite store and every upload into one file (safe while the service runs).',
  options: {
    to: { type: 'string', value: 'FILE', description: 'the backup file to write; must not exist yet (written as FILE.part, renamed when complete)' },
  },
  required: ['to'],
  async runWithoutContext(config, v) {
    const to = resolve(String(v.to))
    const facts = await backupSqliteStore(config, to, (line) => console.error(line))
    const secret = facts.hasSecret ? ', the generated secret key' : ''
    console.log(
      `Backed up the store (migration ${facts.migration}), ${facts.files} upload${facts.files === 1 ? '' : 's'} (${mb(facts.bytes)})${secret} to ${to}.`,
    )
    if (facts.missing) console.error(`${facts.missing} upload(s) named by the store had no stored object; they are listed in the manifest without content.`)
  },
})

export const restore = defineCommand({
  name: 'restore',
  summary: 'Put a backup back into an empty DATA_DIR (uploads go to DATA_DIR/files or the S3 bucket).',
  options: {
    from: { type: 'string', value: 'FILE', description: 'a file written by `backup --to FILE`; every upload is checked against its SHA-256' },
  },
  required: ['from'],
  async runWithoutContext(config, v) {
    const from = resolve(String(v.from))
    const { facts, files } = await restoreSqliteStore(config, from)
    console.log(
      `Restored the store of ${facts.createdAt} (migration ${facts.migration}) and ${files} upload${files === 1 ? '' : 's'} into ${config.dataDir}. Start the service as usual.`,
    )
  },
})
