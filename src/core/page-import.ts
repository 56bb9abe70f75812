import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { type Static, Type } from '@sinclair/typebox'
import type { Principal } from '../auth/principal.ts'
import { requireAbility } from '../auth/principal.ts'
import type { AppContext } from '../context.ts'
import { limits } from '../kernel/limits.ts'
import { toProfileResource } from '../profiles/profile-resource.ts'
import { Profile } from '../profiles/profile-schemas.ts'
import { checkLogin, profileService } from '../profiles/profile-service.ts'
import { slotTypeOf } from '../slots/registry.ts'
import type { Db } from '../store/db.ts'
import { eventsRepository } from '../store/events.ts'
import { filesRepository } from '../store/files.ts'
import { formsRepository } from '../store/forms.ts'
import { languagesRepository } from '../store/languages.ts'
import { profilesRepository } from '../store/profiles.ts'
import { slotsRepository } from '../store/slots.ts'
import { AppError, type FieldErrors, invalid, invalidField, mergeErrors } from '../kernel/errors.ts'
import { fileUseCases } from './file-use-cases.ts'
import { ARCHIVE_LIMITS, readArchive } from '../transfer/page-archive.ts'
import {
  FILE_REF_PATTERN,
  PAGE_DOCUMENT_FORMAT,
  PAGE_DOCUMENT_VERSION,
  PageDocument,
  type PageDocumentSlot,
  RECORD_PROPERTY,
  SkippedItem,
} from '../transfer/page-document.ts'
import { recordIdField, setAtPath } from '../transfer/page-paths.ts'
import { checkSlotData, isPlainObject } from '../slots/slot-data.ts'
import { slotService } from '../slots/slot-service.ts'
import type { VisibilityPatch } from '../slots/shared/visibility.ts'
import { type WriteOptions, writeAccount } from './unit-of-work.ts'
import { ajvErrorsToFields, compileBody } from '../kernel/validation.ts'

export { SkippedItem }

export const ImportResult = Type.Object(
  {
    dryRun: Type.Boolean({ description: 'true: every check ran, nothing was stored (the profile shown is what would have been created).' }),
    profile: Profile,
    created: Type.Object(
      {
        slots: Type.Integer(),
        socials: Type.Integer(),
        files: Type.Integer({ description: 'Images stored through the upload pipeline.' }),
        events: Type.Integer(),
        forms: Type.Integer(),
      },
      { additionalProperties: false },
    ),
    skipped: Type.Array(SkippedItem, { description: 'Everything read that was not imported, with why; empty when all of it was.' }),
  },
  { additionalProperties: false },
)
export type ImportResult = Static<typeof ImportResult>

/** What an import reads: a page archive, a document with its images, and a login to use instead of the document's. */
export type ImportSource =
  | { archive: Uint8Array; login?: string }
  | { document: unknown; login?: string; files?: Map<string, Uint8Array>; skipped?: SkippedItem[] }

interface PlannedSlot {
  type: string
  data: Record<string, unknown>
  record?: { kind: 'events' | 'forms'; idField: string; fields: Record<string, unknown> }
  /** Archive names inside data, by field (`items.0.path`). */
  files: Array<{ field: string; name: string }>
  legacy: boolean
  visibility?: VisibilityPatch
}

interface Plan {
  login: string
  profile: PageDocument['profile']
  languageId: number | null
  slots: PlannedSlot[]
  /** Archive names to store, in order of first use. */
  uploads: string[]
  /** Archive names of images the importing account already owns: their stored paths, reused. */
  kept: Map<string, string>
  files: Map<string, Uint8Array>
  skipped: SkippedItem[]
}

const LEGACY_DATA_BYTES = 64 * 1024

/** Free logins near `login`, for the 422 of a taken one (the spec: "suggests free ones"). */
async function freeLoginsNear(db: Db, login: string): Promise<string[]> {
  const base = login.slice(0, limits.login.maxLength - 5)
  const year = new Date().getUTCFullYear()
  const candidates = [`${base}2`, `${base}_page`, `${base}.${year}`, `${base}3`, `${base}_${randomBytes(2).toString('hex')}`]
  const free: string[] = []
  for (const c of candidates) {
    if (free.length === 3) break
    if ((await checkLogin(db, c)).available) free.push(c)
  }
  return free
}

/** The document and images an import source holds; archive problems are thrown as they are found. */
function unpack(source: ImportSource): { raw: unknown; files: Map<string, Uint8Array>; skipped: SkippedItem[] } {
  if (!('archive' in source)) return { raw: source.document, files: source.files ?? new Map(), skipped: [...(source.skipped ?? [])] }
  const entries = readArchive(source.archive)
  const page = entries.get('page.json')
  if (!page) throw invalidField('archive', 'The archive has no page.json at its top level; it is not a page archive.')
  if (page.length > ARCHIVE_LIMITS.maxDocumentBytes) {
    throw new AppError('payload_too_large', { message: `page.json is larger than ${ARCHIVE_LIMITS.maxDocumentBytes / 1024 / 1024} MB.` })
  }
  let raw: unknown
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(page))
  } catch (err) {
    throw invalidField('page.json', `Not valid UTF-8 JSON: ${(err as Error).message}`)
  }
  const files = new Map<string, Uint8Array>()
  const skipped: SkippedItem[] = []
  const namePattern = new RegExp(FILE_REF_PATTERN)
  for (const [name, data] of entries) {
    if (name === 'page.json') continue
    if (namePattern.test(name)) files.set(name, data)
    else skipped.push({ field: name, reason: 'Not part of a page archive (page.json and files/<name> only).' })
  }
  return { raw, files, skipped }
}

/**
 * The document's images that are not in the upload but that the importing account already has,
 * by the stored path the export named (a copy of one's own page, through the document alone).
 * Only the account's own uploads count: another account's image still needs its file.
 */
async function ownImages(db: Db, userId: number, doc: PageDocument, files: Map<string, Uint8Array>): Promise<Map<string, string>> {
  const wanted = doc.files.filter((f) => f.path !== undefined && !files.has(f.name))
  const owned = await filesRepository.ownedPaths(
    db,
    userId,
    wanted.map((f) => f.path!),
  )
  return new Map(wanted.filter((f) => owned.has(f.path!)).map((f) => [f.name, f.path!]))
}

const notBrought = (name: string) => `Its image ${name} is neither in the upload nor one of this account's own images, so it was left out.`

/** Format and version first: a document of another version gets that answer, not fifty field errors. */
function checkDocument(raw: unknown): PageDocument {
  if (!isPlainObject(raw)) throw invalidField('document', 'A page document is a JSON object (page.json of an export).')
  if (raw.format !== PAGE_DOCUMENT_FORMAT) throw invalidField('format', `Must be "${PAGE_DOCUMENT_FORMAT}": this is not a Slotline page document.`)
  if (raw.version !== PAGE_DOCUMENT_VERSION) {
    throw invalidField('version', `This service reads page documents of version ${PAGE_DOCUMENT_VERSION}; this one says ${JSON.stringify(raw.version)}.`)
  }
  const validate = compileBody(PageDocument)
  if (!validate(raw)) throw invalid(ajvErrorsToFields(validate.errors, '', 'document'))
  return raw as PageDocument
}

/**
 * Every check an import makes before it writes anything, all problems at once: the document's
 * shape, the login, each slot through its type's schema and rules, each image through the
 * upload pipeline (dry run). What cannot be imported but is no error goes to `skipped`.
 */
async function plan(ctx: AppContext, principal: Principal, source: ImportSource): Promise<Plan> {
  const { raw, files, skipped } = unpack(source)
  const doc = checkDocument(raw)
  const errors: FieldErrors = Object.create(null)
  const login = source.login ?? doc.profile.login
  await checkImportLogin(ctx, login, source.login === undefined ? 'profile.login' : 'login', errors)
  const kept = await ownImages(ctx.db, principal.user.id, doc, files)
  const uploads: string[] = []
  const images: ImageUse = {
    has: (name) => files.has(name) || kept.has(name),
    use: (name) => {
      if (files.has(name) && !uploads.includes(name)) uploads.push(name)
    },
  }
  const profile = { ...doc.profile }
  for (const field of ['avatar', 'bgImage'] as const) {
    const name = profile[field]
    if (name === null) continue
    if (images.has(name)) images.use(name)
    else {
      skipped.push({ field: `profile.${field}`, reason: notBrought(name) })
      profile[field] = null
    }
  }
  const languageId = await importedLanguage(ctx, profile.languageCode, skipped)
  const slots: PlannedSlot[] = []
  doc.slots.forEach((slot: PageDocumentSlot, i) => {
    const planned = planSlot(slot, i, images, errors, skipped)
    if (planned) slots.push(planned)
  })
  for (const name of files.keys()) {
    if (!uploads.includes(name)) skipped.push({ field: name, reason: 'No part of the page uses this image.' })
  }
  await dryRunUploads(ctx, principal, files, uploads, errors)
  if (Object.keys(errors).length) throw invalid(errors)
  return { login, profile, languageId, slots, uploads, kept, files, skipped }
}

/** Which images the document can use (in the archive or already the account's), and which of the archive's it does. */
interface ImageUse {
  has(name: string): boolean
  use(name: string): void
}

async function checkImportLogin(ctx: AppContext, login: string, field: string, errors: FieldErrors): Promise<void> {
  const verdict = await checkLogin(ctx.db, login)
  if (verdict.available) return
  if (verdict.reason !== 'taken') {
    errors[field] = [verdict.message]
    return
  }
  const free = await freeLoginsNear(ctx.db, login)
  errors[field] = [
    `The login "${login}" is already taken; ${free.length ? `free ones: ${free.join(', ')}` : 'choose another'}. Send the one you want as login.`,
  ]
}

async function importedLanguage(ctx: AppContext, code: string | null, skipped: Plan['skipped']): Promise<number | null> {
  if (code === null) return null
  const language = await languagesRepository.findByCode(ctx.db, code)
  if (language?.isActive) return language.id
  skipped.push({ field: 'profile.languageCode', reason: `This service does not offer the language "${code}"; the page follows its owner's language.` })
  return null
}

/** One slot of the document as it will be written, or undefined when it is skipped or refused. */
function planSlot(slot: PageDocumentSlot, i: number, images: ImageUse, errors: FieldErrors, skipped: Plan['skipped']): PlannedSlot | undefined {
  const def = slotTypeOf(slot.type)
  if (!def) {
    // A type this service no longer has (legacy) is the owner's data: kept as it is, read-only,
    // exactly as such slots are kept on pages today.
    if (JSON.stringify(slot.data).length <= LEGACY_DATA_BYTES) return { type: slot.type, data: slot.data, files: [], legacy: true }
    errors[`slots.${i}.data`] = [`A slot of an unknown type may hold at most ${LEGACY_DATA_BYTES} bytes of data.`]
    return undefined
  }
  const data = structuredClone(slot.data)
  let record: PlannedSlot['record']
  const ref = def.record?.(data as never)
  if (ref) {
    const fields = slot[RECORD_PROPERTY[ref.kind]]
    const idField = recordIdField(def, data)
    if (!fields || !idField) {
      skipped.push({ field: `slots.${i}`, reason: `The ${RECORD_PROPERTY[ref.kind]} this slot shows is not in the document, so the slot could show nothing.` })
      return undefined
    }
    record = { kind: ref.kind, idField, fields }
  } else if (slot.event || slot.form) {
    errors[`slots.${i}`] = [`Only slots that show an event or a form carry one; this is a ${slot.type} slot.`]
  }
  const check = checkSlotData(def, data, `slots.${i}.data`)
  if (!check.ok) {
    mergeErrors(errors, check.errors)
    return undefined
  }
  const names = check.files.map((f) => ({ field: f.field, name: f.path }))
  const notRef = names.find((f) => !new RegExp(FILE_REF_PATTERN).test(f.name))
  if (notRef) {
    errors[`slots.${i}.data.${notRef.field}`] = ['Name an image of the archive (files/<name>), not a stored path or URL.']
    return undefined
  }
  const absent = names.find((f) => !images.has(f.name))
  if (absent) {
    skipped.push({ field: `slots.${i}`, reason: notBrought(absent.name) })
    return undefined
  }
  for (const f of names) images.use(f.name)
  return { type: slot.type, data: check.data, record, files: names, legacy: false, visibility: slot.visibility }
}

/** Each image through the same pipeline and checks as an upload, storing nothing yet. */
async function dryRunUploads(ctx: AppContext, principal: Principal, files: Plan['files'], uploads: string[], errors: FieldErrors): Promise<void> {
  for (const name of uploads) {
    const bytes = files.get(name)!
    try {
      await fileUseCases.upload(ctx, principal, { stream: Readable.from([Buffer.from(bytes)]), length: bytes.length }, { dryRun: true })
    } catch (err) {
      if (!(err instanceof AppError) || !(err.code === 'validation_failed' || err.code === 'payload_too_large')) throw err
      errors[name] = [`${name}: ${err.message}`]
    }
  }
}

/** A record slot's event or form, stored as the new page owner's; its new id. */
async function storeRecord(trx: Db, userId: number, kind: 'events' | 'forms', r: Record<string, any>): Promise<number> {
  if (kind === 'events') {
    const { title, description, startsAt, endsAt, timezone, location, link } = r
    return (await eventsRepository.insert(trx, { userId, title, description, startsAt, endsAt, timezone, location, link })).id
  }
  return (await formsRepository.insert(trx, { userId, title: r.title, description: r.description, fields: r.fields, submitLabel: r.submitLabel })).id
}

/** Writes the plan in the open transaction; `paths` gives each archive name its stored upload. */
async function write(ctx: AppContext, trx: Db, userId: number, p: Plan, paths: Map<string, string>) {
  const created = await profileService.create(trx, userId, p.login)
  const pathOf = (name: string | null) => (name === null ? null : paths.get(name)!)
  let profile = await profileService.update(trx, created, {
    title: p.profile.title,
    description: p.profile.description,
    avatar: pathOf(p.profile.avatar),
    bgImage: pathOf(p.profile.bgImage),
    socials: p.profile.socials,
    seoTitle: p.profile.seoTitle ?? null,
    seoDescription: p.profile.seoDescription ?? null,
    seoSubject: p.profile.seoSubject ?? 'person',
  })
  profile = await profilesRepository.update(trx, profile.id, { themeId: p.profile.themeId, languageId: p.languageId, status: p.profile.published })
  const counts = { events: 0, forms: 0 }
  const supported = []
  for (const slot of p.slots.filter((s) => !s.legacy)) {
    const data = structuredClone(slot.data)
    for (const f of slot.files) setAtPath(data, f.field, paths.get(f.name))
    if (slot.record) data[slot.record.idField] = await storeRecord(trx, userId, slot.record.kind, slot.record.fields as never)
    if (slot.record) counts[slot.record.kind]++
    supported.push({ type: slot.type, data, visibility: slot.visibility })
  }
  if (supported.length) await slotService.appendManaged(trx, profile, supported)
  // Page order as in the document: legacy slots go back between the others where they were.
  const legacy = p.slots.flatMap((s, position) => (s.legacy ? [{ type: s.type, data: s.data, position }] : []))
  if (legacy.length) {
    const target = p.slots.flatMap((s, position) => (s.legacy ? [] : [position]))
    const stored = await slotService.list(trx, profile.id)
    await slotsRepository.setPositions(
      trx,
      profile.id,
      stored.map((s, k) => ({ id: s.id, position: target[k] })),
    )
    await slotsRepository.insertMany(trx, profile.id, legacy)
  }
  return {
    profile: toProfileResource(ctx.config, profile),
    created: { slots: p.slots.length, socials: p.profile.socials.length, files: p.uploads.length, ...counts },
  }
}

/** Removes uploads an import stored before its transaction failed (their rows, variants and objects). */
async function discardUploads(ctx: AppContext, userId: number, paths: string[]) {
  if (!paths.length) return
  const removed = await filesRepository.deleteUploads(ctx.db, userId, paths).catch((err) => {
    ctx.log.error({ err, paths }, 'import: could not remove the uploads of a failed import')
    return []
  })
  const { storage } = ctx.media
  for (const f of removed) await storage.delete(f.path).catch((err) => ctx.log.warn({ err, path: f.path }, 'import: could not delete an object'))
}

/**
 * POST /profiles/import: a new page from a page document (an archive, or page.json
 * alone), all or nothing. Every problem is reported at once before anything is written; a dry
 * run answers what would be created. Images are stored through the upload pipeline first (no
 * transaction may wait on image work), then the page in one transaction; if that fails, the
 * images go again.
 */
async function importPage(ctx: AppContext, principal: Principal, source: ImportSource, options: WriteOptions = {}): Promise<ImportResult> {
  requireAbility(principal, 'profile:write')
  const userId = principal.user.id
  const p = await plan(ctx, principal, source)
  if (options.dryRun) {
    const result = await writeAccount(ctx, principal, { dryRun: true }, async (trx) => {
      // Stand-ins for the images, so ownership checks pass; rolled back with everything else.
      const paths = new Map(p.kept)
      for (const name of p.uploads) {
        const path = `u${userId}/${randomBytes(16).toString('base64url')}.${name.slice(name.lastIndexOf('.') + 1)}`
        await filesRepository.insert(trx, { userId, path, mime: 'image/png', size: 0, width: null, height: null })
        paths.set(name, path)
      }
      return write(ctx, trx, userId, p, paths)
    })
    return { dryRun: true, ...result, skipped: p.skipped }
  }
  const paths = new Map(p.kept)
  const uploaded: string[] = []
  try {
    for (const name of p.uploads) {
      const bytes = p.files.get(name)!
      const stored = await fileUseCases.upload(ctx, principal, { stream: Readable.from([Buffer.from(bytes)]), length: bytes.length })
      paths.set(name, stored!.path)
      uploaded.push(stored!.path)
    }
    const result = await writeAccount(ctx, principal, {}, (trx) => write(ctx, trx, userId, p, paths))
    return { dryRun: false, ...result, skipped: p.skipped }
  } catch (err) {
    // Only what this import stored: the images it kept were the account's before and stay.
    await discardUploads(ctx, userId, uploaded)
    throw err
  }
}

export const pageImportUseCases = Object.freeze({ importPage })
