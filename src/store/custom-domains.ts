import type { Selectable } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import { type Db, nowIso } from './db.ts'
import type { CustomDomainsTable } from './schema.ts'

export type DomainState = 'pending' | 'active' | 'failing' | 'removed'

type Row = Selectable<CustomDomainsTable>

export interface StoredDomain extends CamelCased<Omit<Row, 'state'>> {
  state: DomainState
}

const toDomain = (r: Row): StoredDomain => camelRow(r, { state: r.state as DomainState })

export interface DomainChanges {
  state?: DomainState
  problem?: string | null
  checkedAt?: string | null
  verifiedAt?: string | null
  failingSince?: string | null
}

async function create(db: Db, d: { profileId: number; name: string; token: string }): Promise<StoredDomain> {
  const now = nowIso()
  const row = await db
    .insertInto('custom_domains')
    .values({ profile_id: d.profileId, name: d.name, token: d.token, state: 'pending', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toDomain(row)
}

/** The page's domain, live or (when it has none) the last one released, so its owner learns why. */
async function latestOfProfile(db: Db, profileId: number): Promise<StoredDomain | undefined> {
  const row = await db.selectFrom('custom_domains').selectAll().where('profile_id', '=', profileId).orderBy('id', 'desc').limit(1).executeTakeFirst()
  return row ? toDomain(row) : undefined
}

async function liveOfProfile(db: Db, profileId: number): Promise<StoredDomain | undefined> {
  const row = await db.selectFrom('custom_domains').selectAll().where('profile_id', '=', profileId).where('state', '<>', 'removed').executeTakeFirst()
  return row ? toDomain(row) : undefined
}

async function liveByName(db: Db, name: string): Promise<StoredDomain | undefined> {
  const row = await db.selectFrom('custom_domains').selectAll().where('name', '=', name).where('state', '<>', 'removed').executeTakeFirst()
  return row ? toDomain(row) : undefined
}

/** Whether `name` is served: one read of the (name, state) index, for the TLS ask. */
async function isActive(db: Db, name: string): Promise<boolean> {
  const row = await db.selectFrom('custom_domains').select('id').where('name', '=', name).where('state', '=', 'active').limit(1).executeTakeFirst()
  return row !== undefined
}

/** The page an active domain serves. */
async function activeProfileId(db: Db, name: string): Promise<number | undefined> {
  const row = await db.selectFrom('custom_domains').select('profile_id').where('name', '=', name).where('state', '=', 'active').limit(1).executeTakeFirst()
  return row?.profile_id
}

/** The active domain of a page, if any: its canonical host. */
async function activeNameOfProfile(db: Db, profileId: number): Promise<string | undefined> {
  const row = await db.selectFrom('custom_domains').select('name').where('profile_id', '=', profileId).where('state', '=', 'active').limit(1).executeTakeFirst()
  return row?.name
}

/** Every active domain by page id (the sitemap of the main host lists those pages there). */
async function activeNamesByProfile(db: Db): Promise<Map<number, string>> {
  const rows = await db.selectFrom('custom_domains').select(['profile_id', 'name']).where('state', '=', 'active').execute()
  return new Map(rows.map((r) => [r.profile_id, r.name]))
}

async function update(db: Db, id: number, changes: DomainChanges): Promise<StoredDomain> {
  const row = await db
    .updateTable('custom_domains')
    .set({
      updated_at: nowIso(),
      ...(changes.state !== undefined && { state: changes.state }),
      ...(changes.problem !== undefined && { problem: changes.problem }),
      ...(changes.checkedAt !== undefined && { checked_at: changes.checkedAt }),
      ...(changes.verifiedAt !== undefined && { verified_at: changes.verifiedAt }),
      ...(changes.failingSince !== undefined && { failing_since: changes.failingSince }),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return toDomain(row)
}

/** Live domains not checked since `before`, oldest check first. */
async function dueForCheck(db: Db, before: string, limit: number): Promise<StoredDomain[]> {
  const rows = await db
    .selectFrom('custom_domains')
    .selectAll()
    .where('state', '<>', 'removed')
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', before)]))
    .orderBy('checked_at')
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map(toDomain)
}

export const customDomainsRepository = Object.freeze({
  create,
  latestOfProfile,
  liveOfProfile,
  liveByName,
  isActive,
  activeProfileId,
  activeNameOfProfile,
  activeNamesByProfile,
  update,
  dueForCheck,
})
