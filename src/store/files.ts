import { type Selectable, sql } from 'kysely'
import { type Db, isPostgres, nowIso } from './db.ts'
import type { FilesTable } from './schema.ts'

export interface StoredFile {
  id: number
  userId: number
  path: string
  mime: string
  size: number
  width: number | null
  height: number | null
  createdAt: string
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
  createdAt: r.created_at,
})

async function insert(db: Db, f: Omit<StoredFile, 'id' | 'createdAt'>): Promise<StoredFile> {
  const row = await db
    .insertInto('files')
    .values({ user_id: f.userId, path: f.path, mime: f.mime, size: f.size, width: f.width, height: f.height, created_at: nowIso() })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toFile(row)
}

async function findByPath(db: Db, path: string): Promise<StoredFile | undefined> {
  const row = await db.selectFrom('files').selectAll().where('path', '=', path).executeTakeFirst()
  return row && toFile(row)
}

/** Which of `paths` belong to the user: the ownership check behind avatar, picture and gallery. */
async function ownedPaths(db: Db, userId: number, paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set()
  const rows = await db.selectFrom('files').select('path').where('user_id', '=', userId).where('path', 'in', [...new Set(paths)]).execute()
  return new Set(rows.map((r) => r.path))
}

/**
 * Deletes, in one statement, the files created before `beforeIso` that nothing references: no
 * profile's avatar or bg_image, and no slot whose data JSON holds the path as a string (picture
 * `path`, gallery `items[].path`). A reference added meanwhile keeps its file. Returns what went.
 */
async function deleteUnusedBefore(db: Db, beforeIso: string): Promise<StoredFile[]> {
  // The quoted path as JSON.stringify writes it; paths hold no character JSON would escape.
  const quoted = sql<string>`'"' || files.path || '"'`
  const contains = isPostgres(db) ? sql<number>`strpos(slots.data, ${quoted})` : sql<number>`instr(slots.data, ${quoted})`
  const rows = await db
    .deleteFrom('files')
    .where('created_at', '<', beforeIso)
    .where(({ not, exists, selectFrom, or }) =>
      not(
        or([
          exists(
            selectFrom('profiles')
              .select(sql`1`.as('one'))
              .where((p) => p.or([p('profiles.avatar', '=', p.ref('files.path')), p('profiles.bg_image', '=', p.ref('files.path'))])),
          ),
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
 * page uses, and returns them: what must go with the page when it is deleted. Run it before
 * the page's own rows go, inside the same transaction.
 */
async function deleteUsedOnlyBy(db: Db, profileId: number): Promise<StoredFile[]> {
  const quoted = sql<string>`'"' || files.path || '"'`
  const contains = isPostgres(db) ? sql<number>`strpos(slots.data, ${quoted})` : sql<number>`instr(slots.data, ${quoted})`
  const rows = await db
    .deleteFrom('files')
    .where(({ exists, not, selectFrom, or, and }) =>
      and([
        or([
          exists(
            selectFrom('profiles')
              .select(sql`1`.as('one'))
              .where('profiles.id', '=', profileId)
              .where((p) => p.or([p('profiles.avatar', '=', p.ref('files.path')), p('profiles.bg_image', '=', p.ref('files.path'))])),
          ),
          exists(selectFrom('slots').select(sql`1`.as('one')).where('slots.profile_id', '=', profileId).where(contains, '>', 0)),
        ]),
        not(
          exists(
            selectFrom('profiles')
              .select(sql`1`.as('one'))
              .where('profiles.id', '!=', profileId)
              .where((p) => p.or([p('profiles.avatar', '=', p.ref('files.path')), p('profiles.bg_image', '=', p.ref('files.path'))])),
          ),
        ),
        not(exists(selectFrom('slots').select(sql`1`.as('one')).where('slots.profile_id', '!=', profileId).where(contains, '>', 0))),
      ]),
    )
    .returningAll()
    .execute()
  return rows.map(toFile)
}

export const filesRepository = Object.freeze({ insert, findByPath, ownedPaths, deleteUnusedBefore, deleteUsedOnlyBy })
