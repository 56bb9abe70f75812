import { ownerPrincipal, type Principal } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { slotTypeOf } from '../slots/registry.ts'
import type { Db } from '../store/db.ts'
import { filesRepository } from '../store/files.ts'
import { languagesRepository } from '../store/languages.ts'
import { profilesRepository, type StoredProfile } from '../store/profiles.ts'
import { usersRepository } from '../store/users.ts'
import { notFound } from '../kernel/errors.ts'
import { writeArchive } from '../transfer/page-archive.ts'
import {
  PAGE_DOCUMENT_FORMAT,
  PAGE_DOCUMENT_VERSION,
  type PageDocument,
  type PageDocumentSlot,
  RECORD_FIELDS,
  RECORD_PROPERTY,
} from '../transfer/page-document.ts'
import { setAtPath } from '../transfer/page-paths.ts'
import { slotService } from '../slots/slot-service.ts'
import { type ProfileKey, readProfile } from './unit-of-work.ts'

/** Where the document's JSON Schema is served (linked from OpenAPI and from every exported document). */
export const pageDocumentSchemaUrl = (publicUrl: string) => `${publicUrl}/v1/schemas/page-document.json`

/** The document, and which stored upload each of its `files/` entries comes from. */
export interface ExportedPage {
  login: string
  document: PageDocument
  uploads: Array<{ name: string; path: string }>
}

const extensionOf = (path: string) => path.slice(path.lastIndexOf('.') + 1)

/**
 * The page as a portable document. Upload paths become archive names numbered in order of first
 * use (`files/1.png`), never the stored paths: they are this service's, and numbering keeps an
 * export → import → export round trip identical.
 */
async function buildDocument(ctx: AppContext, db: Db, profile: StoredProfile): Promise<ExportedPage> {
  const names = new Map<string, string>()
  const nameOf = (path: string) => {
    let name = names.get(path)
    if (!name) names.set(path, (name = `files/${names.size + 1}.${extensionOf(path)}`))
    return name
  }
  const avatar = profile.avatar ? nameOf(profile.avatar) : null
  const bgImage = profile.bgImage ? nameOf(profile.bgImage) : null
  const stored = await slotService.list(db, profile.id)
  const records = await slotService.records(db, profile.userId, stored)
  const slots: PageDocumentSlot[] = stored.map((slot) => {
    const data = structuredClone(slot.data) as Record<string, unknown>
    const def = slotTypeOf(slot.type)
    if (!def) return { type: slot.type, data }
    for (const ref of def.files?.(data as never) ?? []) setAtPath(data, ref.field, nameOf(ref.path))
    const out: PageDocumentSlot = { type: slot.type, data }
    const ref = def.record?.(data as never)
    const record = records.get(slot.id) as Record<string, unknown> | undefined
    if (ref && record) out[RECORD_PROPERTY[ref.kind]] = Object.fromEntries(RECORD_FIELDS[ref.kind].map((k) => [k, record[k]])) as never
    // Only a slot that is not simply shown carries its visibility, so older documents read alike.
    const v = slot.visibility
    if (v.hidden || v.startsAt !== null || v.endsAt !== null) out.visibility = { ...v }
    return out
  })
  const language = profile.languageId === null ? undefined : await languagesRepository.findById(db, profile.languageId)
  const files = await Promise.all(
    [...names].map(async ([path, name]) => {
      const file = await filesRepository.findByPath(db, path)
      return {
        name,
        mime: (file?.mime ?? 'image/png') as PageDocument['files'][number]['mime'],
        width: file?.width ?? null,
        height: file?.height ?? null,
        path,
      }
    }),
  )
  const document: PageDocument = {
    $schema: pageDocumentSchemaUrl(ctx.config.publicUrl),
    format: PAGE_DOCUMENT_FORMAT,
    version: PAGE_DOCUMENT_VERSION,
    exportedAt: new Date().toISOString(),
    profile: {
      login: profile.login,
      title: profile.title,
      description: profile.description,
      avatar,
      bgImage,
      socials: profile.socials.map((s) => ({ link: s.link, order: s.order })),
      languageCode: language?.code ?? null,
      themeId: profile.themeId,
      published: profile.status,
      ...(profile.seoTitle !== null && { seoTitle: profile.seoTitle }),
      ...(profile.seoDescription !== null && { seoDescription: profile.seoDescription }),
      ...(profile.seoSubject !== 'person' && { seoSubject: profile.seoSubject }),
    },
    slots,
    files,
  }
  return { login: profile.login, document, uploads: [...names].map(([path, name]) => ({ name, path })) }
}

/** The page as its JSON document alone (what the MCP tool answers). */
async function exportDocument(ctx: AppContext, principal: Principal, profileKey: ProfileKey): Promise<PageDocument> {
  return readProfile(ctx, principal, profileKey, async (db, profile) => (await buildDocument(ctx, db, profile)).document)
}

/**
 * The page as one zip, `page.json` and `files/` with every upload it uses (the stored
 * image itself, not its WebP copies). An upload whose stored object is gone is left out of the
 * archive and of `files`; an import then reports what used it.
 */
async function exportArchive(ctx: AppContext, principal: Principal, profileKey: ProfileKey): Promise<{ login: string; archive: Uint8Array }> {
  const exported = await readProfile(ctx, principal, profileKey, (db, profile) => buildDocument(ctx, db, profile))
  const { storage } = ctx.media
  const entries: Array<{ name: string; data: Uint8Array }> = []
  const missing = new Set<string>()
  for (const upload of exported.uploads) {
    // A file the store cannot give back is left out like a missing one; the rest still travels.
    const object = await storage.get(upload.path).catch((err) => {
      ctx.log.warn({ err, path: upload.path }, 'export: an upload could not be read')
      return undefined
    })
    if (!object) {
      missing.add(upload.name)
      continue
    }
    const chunks: Buffer[] = []
    for await (const chunk of object.body) chunks.push(chunk as Buffer)
    entries.push({ name: upload.name, data: Buffer.concat(chunks) })
  }
  const document = { ...exported.document, files: exported.document.files.filter((f) => !missing.has(f.name)) }
  entries.unshift({ name: 'page.json', data: Buffer.from(`${JSON.stringify(document, null, 2)}\n`) })
  return { login: exported.login, archive: writeArchive(entries) }
}

/** The command line's export: an operator names any page by its login, and it is exported as its owner would. */
async function exportArchiveByLogin(ctx: AppContext, login: string): Promise<{ login: string; archive: Uint8Array }> {
  const profile = await profilesRepository.findByLogin(ctx.db, login)
  const owner = profile && (await usersRepository.findById(ctx.db, profile.userId))
  if (!profile || !owner) throw notFound('profile', `No page has the login "${login}".`)
  return exportArchive(ctx, ownerPrincipal(owner), profile.id)
}

export const pageExportUseCases = Object.freeze({ exportDocument, exportArchive, exportArchiveByLogin })
