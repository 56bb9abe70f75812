import * as useCases from '../core/use-cases.ts'
import { parseAge } from '../media/file-purge.ts'
import { defineCommand } from './command.ts'

export const filesPurge = defineCommand({
  name: 'files purge',
  summary: 'Remove uploads nothing references: --unused --older-than 7d (and stale temp uploads).',
  options: {
    unused: { type: 'boolean', description: 'only files no page, slot or form uses (the only mode; required to say so)' },
    'older-than': { type: 'string', value: 'AGE', description: 'uploaded before this age: 30m, 12h, 7d or 2w' },
  },
  required: ['unused', 'older-than'],
  async run(ctx, v) {
    const age = parseAge(String(v['older-than']))
    if (age === undefined) throw new Error(`--older-than takes an age like 7d, 12h, 30m or 2w, not "${v['older-than']}".`)
    const { removed, failed, tempFiles } = await useCases.operator.purgeFiles(ctx, { olderThanMs: age })
    for (const file of removed) console.log(`removed ${file.path} (${file.mime}, ${file.size} bytes, uploaded ${file.createdAt})`)
    for (const f of failed) console.error(`could not delete the stored object of ${f.path}: ${f.error}`)
    for (const name of tempFiles) console.log(`removed leftover temp upload ${name}`)
    const bytes = removed.reduce((sum, f) => sum + f.size, 0)
    console.log(`Removed ${removed.length} unused file${removed.length === 1 ? '' : 's'} (${bytes} bytes).`)
    if (failed.length) throw new Error(`${failed.length} stored object(s) could not be deleted; their rows are gone, delete them by hand.`)
  },
})
