import { type ExpressionBuilder, type Selectable, sql } from 'kysely'
import { type Db, inTransaction, isPostgres, nowIso } from './db.ts'
import type { Database, FilesTable } from './schema.ts'

export interface StoredFile {
  id: number
  userId: number
  path: string
  mime: string
  size: number
  width: number | null
  height: number | null
  /** The upload this row is a WebP variant of; null for an upload itself. */
  variantOf: string | null
  createdAt: string
}

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

type Row = Selectable<FilesTable>

const toFile = (r: Row): StoredFile => ({
  id: r.id,
  userId: r.user_id,
  path: r.path,
  mime: r.mime,
  size: r.size,
  width: r.width,
  height: r.height,
  variantOf: r.variant_of,
  createdAt: r.created_at,
})

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
    const rows = await db.deleteFrom('files').where('variant_of', 'in', paths.slice(i, i + CHUNK)).returningAll().execute()
    removed.push(...rows.map(toFile))
  }
  return removed
}

/** Deletes the uploads `deleteUploads` picks, then their variants, in one transaction (a variant never outlives its upload); returns them all. */
async function withVariants(db: Db, deleteUploads: (trx: Db) => Promise<StoredFile[]>): Promise<StoredFile[]> {
  return inTransaction(db, async (trx) => {
    const uploads = await deleteUploads(trx)
    return [...uploads, ...(await deleteVariantsOf(trx, uploads.map((f) => f.path)))]
  })
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

/**
 * Deletes, in one statement, the files created before `beforeIso` that nothing references: no
 * profile's avatar or bg_image, and no slot whose data JSON holds the path as a string (picture
 * `path`, gallery `items[].path`). A reference added meanwhile keeps its file. Then, in the same
 * transaction, their variants. Returns what went, variants included.
 */
async function deleteUnusedBefore(db: Db, beforeIso: string): Promise<StoredFile[]> {
  return withVariants(db, (trx) => deleteUnusedUploadsBefore(trx, beforeIso))
}

async function deleteUnusedUploadsBefore(db: Db, beforeIso: string): Promise<StoredFile[]> {
  const contains = slotDataHolds(db)
  const rows = await db
    .deleteFrom('files')
    .where('created_at', '<', beforeIso)
    .where('variant_of', 'is', null)
    .where(({ not, exists, selectFrom, or }) =>
      not(
        or([
          exists(selectFrom('profiles').select(sql`1`.as('one')).where(profileHoldsFile)),
          exists(selectFrom('slots').select(sql`1`.as('one')).where(contains, '>', 0)),
        ]),
      ),
    )
    .returningAll()
    .execute()
  return rows.map(toFile)
}

/**
 * Deletes the files page `profileId` uses (its avatar, cover or a slot's data) that no other
 * page uses, with their variants, and returns them all: what must go with the page when it is
 * deleted. Run it before the page's own rows go, inside the same transaction.
 */
async function deleteUsedOnlyBy(db: Db, profileId: number): Promise<StoredFile[]> {
  return withVariants(db, (trx) => deleteUploadsUsedOnlyBy(trx, profileId))
}

async function deleteUploadsUsedOnlyBy(db: Db, profileId: number): Promise<StoredFile[]> {
  const contains = slotDataHolds(db)
  const rows = await db
    .deleteFrom('files')
    .where('variant_of', 'is', null)
    .where(({ exists, not, selectFrom, or, and }) =>
      and([
        or([
          exists(
            selectFrom('profiles')
              .select(sql`1`.as('one'))
              .where('profiles.id', '=', profileId)
              .where(profileHoldsFile),
          ),
          exists(selectFrom('slots').select(sql`1`.as('one')).where('slots.profile_id', '=', profileId).where(contains, '>', 0)),
        ]),
        not(
          exists(
            selectFrom('profiles')
              .select(sql`1`.as('one'))
              .where('profiles.id', '!=', profileId)
              .where(profileHoldsFile),
          ),
        ),
        not(exists(selectFrom('slots').select(sql`1`.as('one')).where('slots.profile_id', '!=', profileId).where(contains, '>', 0))),
      ]),
    )
    .returningAll()
    .execute()
  return rows.map(toFile)
}

export const filesRepository = Object.freeze({ insert, findByPath, ownedPaths, imagesByPath, deleteUnusedBefore, deleteUsedOnlyBy })
