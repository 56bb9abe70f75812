import type * as Fflate from 'fflate'
import { onFirstUse } from '../kernel/on-first-use.ts'
import type { Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { accountExport } from '../store/account-export-rows.ts'
import { readAccount } from './unit-of-work.ts'

const fflate = onFirstUse<typeof Fflate>('fflate')

const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`)
/** Columns stored as JSON text come out as JSON, not as strings of it. */
const parsed = (row: Record<string, unknown>, columns: string[]) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, columns.includes(k) && typeof v === 'string' ? safeParse(v) : v]))
function safeParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
}

/**
 * Everything of the principal's account as a zip: account.json, pages.json (pages with their
 * blocks), forms.json, events.json, submissions.json, tokens.json (names and abilities, never the
 * tokens) and the original uploads under uploads/. Built in memory: simple, and an account's
 * uploads are bounded by the upload limits; a streaming zip is the next step if that changes.
 */
export async function exportAccount(ctx: AppContext, principal: Principal): Promise<Uint8Array> {
  const rows = await readAccount(ctx, principal, (db) => accountExport.rowsOf(db, principal.user.id))
  const pages = rows.profiles.map((p) => ({
    ...parsed(p, ['socials']),
    slots: rows.slots.filter((s) => s.profile_id === p.id).map((s) => parsed(s, ['data'])),
  }))
  const files: Record<string, Uint8Array> = {
    'account.json': json(rows.user),
    'pages.json': json(pages),
    'forms.json': json(rows.forms.map((f) => parsed(f, ['fields']))),
    'events.json': json(rows.events),
    'submissions.json': json(rows.submissions.map((s) => parsed(s, ['data']))),
    'tokens.json': json(rows.tokens.map((t) => parsed(t, ['abilities']))),
    'uploads.json': json(rows.uploads),
  }
  const { storage } = ctx.media
  for (const upload of rows.uploads) {
    const object = await storage.get(upload.path)
    if (object) files[`uploads/${upload.path}`] = await bytesOf(object.body)
  }
  // Images are compressed already: stored, not deflated again.
  return fflate().zipSync(Object.fromEntries(Object.entries(files).map(([name, data]) => [name, [data, { level: name.startsWith('uploads/') ? 0 : 6 }]])))
}
