import { readFile, writeFile } from 'node:fs/promises'
import { ownerPrincipal } from '../auth/principal.ts'
import { pageExport as pageExportUseCases } from '../core/use-cases.ts'
import { pageImport as pageImportUseCases } from '../core/use-cases.ts'
import { defineCommand } from './command.ts'
import { userByEmail } from './user-by-email.ts'

export const pagesExport = defineCommand({
  name: 'pages export',
  summary: 'Write one page as a portable archive (page.json and its images) to a file.',
  options: {
    login: { type: 'string', value: 'L', description: 'the page to export' },
    to: { type: 'string', value: 'FILE', description: 'where to write the zip' },
  },
  required: ['login', 'to'],
  async run(ctx, v) {
    const { login, archive } = await pageExportUseCases.exportArchiveByLogin(ctx, String(v.login))
    await writeFile(String(v.to), archive)
    console.log(`Exported ${login} to ${v.to} (${archive.length} bytes).`)
  },
})

export const pagesImport = defineCommand({
  name: 'pages import',
  summary: 'Make a new page for a user from a page archive (zip) or its page.json.',
  options: {
    email: { type: 'string', value: 'E', description: "the new page's owner" },
    from: { type: 'string', value: 'FILE', description: 'a zip from `pages export` or GET …/export, or a page.json' },
    login: { type: 'string', value: 'L', description: "the new page's login (default: the one in the file)" },
    'dry-run': { type: 'boolean', description: 'check everything and print what would be created; store nothing' },
  },
  required: ['email', 'from'],
  async run(ctx, v) {
    const user = await userByEmail(ctx, v.email, '; create the account first with `users create`.')
    const bytes = await readFile(String(v.from))
    const login = v.login === undefined ? undefined : String(v.login)
    // A zip starts with "PK"; anything else is read as page.json.
    const source = bytes[0] === 0x50 && bytes[1] === 0x4b ? { archive: new Uint8Array(bytes), login } : { document: parseJson(bytes, String(v.from)), login }
    const result = await pageImportUseCases.importPage(ctx, ownerPrincipal(user), source, { dryRun: v['dry-run'] === true })
    const { slots, socials, files, events, forms } = result.created
    const verb = result.dryRun ? 'Would create' : 'Created'
    console.log(
      `${verb} page ${result.dryRun ? '' : `${result.profile.id} `}at ${result.profile.computed.url}: ${slots} slots, ${socials} socials, ${files} images, ${events} events, ${forms} forms.`,
    )
    for (const s of result.skipped) console.log(`not imported: ${s.field}: ${s.reason}`)
  },
})

function parseJson(bytes: Buffer, file: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'))
  } catch (err) {
    throw new Error(`${file} is neither a zip nor JSON: ${(err as Error).message}`)
  }
}
