import { type Expression, type ExpressionBuilder, type Selectable, type SqlBool, sql } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import { type Db, inTransaction, isPostgres, nowIso } from './db.ts'
import type { Database, FilesTable } from './schema.ts'

type Row = Selectable<FilesTable>

/** An upload, or one of its WebP variants (`variantOf` names the upload). */
export type StoredFile = CamelCased<Row>

/** A WebP variant to record beside its upload (same owner). */
export interface NewVariant {
  path: string
  size: number
  width: number
  height: number
}

/** What a page needs to lay an uploaded image out: its size and its narrower WebP copies. */
export interface ImageRecord {
  mime: string
  width: number
  height: number
  /** Narrowest first; empty for gifs and for uploads stored before variants existed. */
  variants: Array<{ path: string; width: number }>
}

const toFile = (r: Row): StoredFile => camelRow(r)

/** Records an upload and its WebP variants together: a page never sees one without the other. */
async function insert(db: Db, f: Omit<StoredFile, 'id' | 'createdAt' | 'variantOf'>, variants: NewVariant[] = []): Promise<StoredFile> {
  return inTransaction(db, async (trx) => {
    const createdAt = nowIso()
    const row = await trx
      .insertInto('files')
      .values({ user_id: f.userId, path: f.path, mime: f.mime, size: f.size, width: f.width, height: f.height, variant_of: null, created_at: createdAt })
      .returningAll()
      .executeTakeFirstOrThrow()
    if (variants.length) {
      await trx
        .insertInto('files')
        .values(
          variants.map((v) => ({
            user_id: f.userId,
            path: v.path,
            mime: 'image/webp',
            size: v.size,
            width: v.width,
            height: v.height,
            variant_of: f.path,
            created_at: createdAt,
          })),
        )
        .execute()
    }
    return toFile(row)
  })
}

async function findByPath(db: Db, path: string): Promise<StoredFile | undefined> {
  const row = await db.selectFrom('files').selectAll().where('path', '=', path).executeTakeFirst()
  return row && toFile(row)
}

/**
 * Which of `paths` belong to the user: the ownership check behind avatar, picture and gallery.
 * Variants are not uploads: they go with their upload, so no page may name one.
 */
async function ownedPaths(db: Db, userId: number, paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set()
  const rows = await db
    .selectFrom('files')
    .select('path')
    .where('user_id', '=', userId)
    .where('path', 'in', [...new Set(paths)])
    .where('variant_of', 'is', null)
    .execute()
  return new Set(rows.map((r) => r.path))
}

/** Size and variants of the uploads at `paths` that have known dimensions (the rest are left out). */
async function imagesByPath(db: Db, paths: string[]): Promise<Map<string, ImageRecord>> {
  const images = new Map<string, ImageRecord>()
  const unique = [...new Set(paths)]
  if (!unique.length) return images
  const rows = await db
    .selectFrom('files')
    .select(['path', 'mime', 'width', 'height', 'variant_of'])
    .where((eb) => eb.or([eb('path', 'in', unique), eb('variant_of', 'in', unique)]))
    .execute()
  for (const r of rows) {
    if (r.variant_of === null && r.width && r.height) images.set(r.path, { mime: r.mime, width: r.width, height: r.height, variants: [] })
  }
  for (const r of rows) {
    const image = r.variant_of === null ? undefined : images.get(r.variant_of)
    if (image && r.width) image.variants.push({ path: r.path, width: r.width })
  }
  for (const image of images.values()) image.variants.sort((a, b) => a.width - b.width)
  return images
}

// Bound parameters per statement stay far below SQLite's and PostgreSQL's limits.
const CHUNK = 500

/** Deletes the variants of the uploads at `paths` and returns them (their objects must go too). */
async function deleteVariantsOf(db: Db, paths: string[]): Promise<StoredFile[]> {
  const removed: StoredFile[] = []
  for (let i = 0; i < paths.length; i += CHUNK) {
    const rows = await db
      .deleteFrom('files')
      .where('variant_of', 'in', paths.slice(i, i + CHUNK))
      .returningAll()
      .execute()
    removed.push(...rows.map(toFile))
  }
  return removed
}

/**
 * Where slots.data holds files.path as a string (picture `path`, gallery `items[].path`): the
 * quoted path as JSON.stringify writes it; paths hold no character JSON would escape.
 */
function slotDataHolds(db: Db) {
  const quoted = sql<string>`'"' || files.path || '"'`
  return isPostgres(db) ? sql<number>`strpos(slots.data, ${quoted})` : sql<number>`instr(slots.data, ${quoted})`
}

/** A profile whose avatar or cover is files.path. */
const profileHoldsFile = (p: ExpressionBuilder<Database, 'files' | 'profiles'>) =>
  p.or([p('profiles.avatar', '=', p.ref('files.path')), p('profiles.bg_image', '=', p.ref('files.path'))])

type FileFilter = ExpressionBuilder<Database, 'files'>

/**
 * Whether a page uses files.path: as its avatar or cover, or in a slot's data. `pages` narrows
 * which pages count: `['=', id]` that page alone, `['!=', id]` every other one.
 */
function usedByPages(db: Db, eb: FileFilter, pages?: ['=' | '!=', number]) {
  let profiles = eb.selectFrom('profiles').select(sql`1`.as('one')).where(profileHoldsFile)
  let slots = eb.selectFrom('slots').select(sql`1`.as('one')).where(slotDataHolds(db), '>', 0)
  if (pages) {
    profiles = profiles.where('profiles.id', pages[0], pages[1])
    slots = slots.where('slots.profile_id', pages[0], pages[1])
  }
  return eb.or([eb.exists(profiles), eb.exists(slots)])
}

/**
 * Deletes, in one statement, the uploads `pick` chooses, then in the same transaction their
 * variants (a variant never outlives its upload). Returns what went, variants included.
 */
async function deleteUploadsWithVariants(db: Db, pick: (trx: Db, eb: FileFilter) => Expression<SqlBool>): Promise<StoredFile[]> {
  return inTransaction(db, async (trx) => {
    const rows = await trx
      .deleteFrom('files')
      .where('variant_of', 'is', null)
      .where((eb) => pick(trx, eb))
      .returningAll()
      .execute()
    const uploads = rows.map(toFile)
    return [
      ...uploads,
      ...(await deleteVariantsOf(
        trx,
        uploads.map((f) => f.path),
      )),
    ]
  })
}

/**
 * Deletes the files created before `beforeIso` that no page uses: no profile's avatar or
 * bg_image, and no slot whose data JSON holds the path as a string (picture `path`, gallery
 * `items[].path`). A reference added meanwhile keeps its file. Variants go with their upload.
 */
async function deleteUnusedBefore(db: Db, beforeIso: string): Promise<StoredFile[]> {
  return deleteUploadsWithVariants(db, (trx, eb) => eb.and([eb('created_at', '<', beforeIso), eb.not(usedByPages(trx, eb))]))
}

/**
 * Deletes the files page `profileId` uses (its avatar, cover or a slot's data) that no other
 * page uses, with their variants, and returns them all: what must go with the page when it is
 * deleted. Run it before the page's own rows go, inside the same transaction.
 */
async function deleteUsedOnlyBy(db: Db, profileId: number): Promise<StoredFile[]> {
  return deleteUploadsWithVariants(db, (trx, eb) => eb.and([usedByPages(trx, eb, ['=', profileId]), eb.not(usedByPages(trx, eb, ['!=', profileId]))]))
}

/** Deletes the user's uploads at `paths` and their variants, and returns them (an import that failed takes back what it stored). */
async function deleteUploads(db: Db, userId: number, paths: string[]): Promise<StoredFile[]> {
  if (!paths.length) return []
  return deleteUploadsWithVariants(db, (_trx, eb) => eb.and([eb('user_id', '=', userId), eb('path', 'in', paths)]))
}

export const filesRepository = Object.freeze({ insert, findByPath, ownedPaths, imagesByPath, deleteUnusedBefore, deleteUsedOnlyBy, deleteUploads })
