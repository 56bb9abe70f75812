import type { Selectable } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import { countRows, type Db, nowIso, prepared } from './db.ts'
import type { User } from './users.ts'
import type { TokensTable } from './schema.ts'

export type Ability = 'profile:read' | 'profile:write'
export const ABILITIES: readonly Ability[] = ['profile:read', 'profile:write']

type Row = Selectable<TokensTable>

export interface TokenRecord extends CamelCased<Omit<Row, 'abilities'>> {
  abilities: Ability[]
}

const toToken = (r: Row): TokenRecord => camelRow(r, { abilities: r.abilities.split(',').filter(Boolean) as Ability[] })

async function insert(db: Db, t: { userId: number; name: string; tokenHash: string; abilities: Ability[] }): Promise<TokenRecord> {
  const row = await db
    .insertInto('tokens')
    .values({ user_id: t.userId, name: t.name, token_hash: t.tokenHash, abilities: t.abilities.join(','), created_at: nowIso() })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toToken(row)
}

async function findByHash(db: Db, tokenHash: string): Promise<TokenRecord | undefined> {
  const row = await db.selectFrom('tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()
  return row && toToken(row)
}

const tokenWithUser = prepared((db, tokenHash: string) =>
  db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .selectAll('tokens')
    .select([
      'users.email as u_email',
      'users.name as u_name',
      'users.password_hash as u_password_hash',
      'users.timezone as u_timezone',
      'users.language_code as u_language_code',
      'users.created_at as u_created_at',
    ])
    .where('tokens.token_hash', '=', tokenHash),
)

/** The token and its owner in one round trip: every authenticated request starts here. */
async function findWithUser(db: Db, tokenHash: string): Promise<{ token: TokenRecord; user: User } | undefined> {
  const [row] = await tokenWithUser(db, tokenHash)
  if (!row) return undefined
  const { u_email, u_name, u_password_hash, u_timezone, u_language_code, u_created_at, ...token } = row
  return {
    token: toToken(token),
    user: {
      id: row.user_id,
      email: u_email,
      name: u_name,
      passwordHash: u_password_hash,
      timezone: u_timezone,
      languageCode: u_language_code,
      createdAt: u_created_at,
    },
  }
}

/** Whose token this is (undefined: no such token), for reading the owner's revision first. */
async function findOwner(db: Db, tokenHash: string): Promise<number | undefined> {
  const row = await db.selectFrom('tokens').select('user_id').where('token_hash', '=', tokenHash).executeTakeFirst()
  return row?.user_id
}

async function countByUser(db: Db, userId: number): Promise<number> {
  return countRows(db.selectFrom('tokens').where('user_id', '=', userId).where('kind', '=', 'personal'))
}

async function listByUser(db: Db, userId: number): Promise<TokenRecord[]> {
  const rows = await db.selectFrom('tokens').selectAll().where('user_id', '=', userId).where('kind', '=', 'personal').orderBy('id').execute()
  return rows.map(toToken)
}

async function touch(db: Db, id: number, at = nowIso()): Promise<void> {
  await db.updateTable('tokens').set({ last_used_at: at }).where('id', '=', id).execute()
}

/** Revocation deletes the row: the very next request with that token finds nothing. */
async function revoke(db: Db, userId: number, id: number): Promise<boolean> {
  const res = await db.deleteFrom('tokens').where('id', '=', id).where('user_id', '=', userId).where('kind', '=', 'personal').executeTakeFirst()
  return Number(res.numDeletedRows) > 0
}

export interface NewOAuthToken {
  userId: number
  grantId: number
  kind: 'access' | 'refresh'
  name: string
  tokenHash: string
  abilities: Ability[]
  expiresAt: string | null
  resource: string
  family: string
}

async function insertOAuth(db: Db, t: NewOAuthToken): Promise<void> {
  await db
    .insertInto('tokens')
    .values({
      user_id: t.userId,
      grant_id: t.grantId,
      kind: t.kind,
      name: t.name,
      token_hash: t.tokenHash,
      abilities: t.abilities.join(','),
      expires_at: t.expiresAt,
      resource: t.resource,
      family: t.family,
      created_at: nowIso(),
    })
    .execute()
}

/**
 * Marks a refresh token exchanged, once: false when another exchange got there first (the
 * caller then decides between the grace window and reuse detection).
 */
async function markRotated(db: Db, id: number, at = nowIso()): Promise<boolean> {
  const res = await db.updateTable('tokens').set({ rotated_at: at }).where('id', '=', id).where('rotated_at', 'is', null).executeTakeFirst()
  return Number(res.numUpdatedRows) > 0
}

/**
 * Keeps the sealed pair a refresh token was just exchanged for, and drops any kept before in its
 * family: only the latest rotation can be retried.
 */
async function keepSuccessor(db: Db, id: number, family: string, sealed: string): Promise<void> {
  await db.updateTable('tokens').set({ successor: null }).where('family', '=', family).where('successor', 'is not', null).execute()
  await db.updateTable('tokens').set({ successor: sealed }).where('id', '=', id).execute()
}

/** Takes the kept pair of a rotated refresh token, once: two racing retries get it at most once between them. */
async function takeSuccessor(db: Db, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('tokens').select('successor').where('id', '=', id).executeTakeFirst()
  if (!row?.successor) return undefined
  const res = await db.updateTable('tokens').set({ successor: null }).where('id', '=', id).where('successor', '=', row.successor).executeTakeFirst()
  return Number(res.numUpdatedRows) > 0 ? row.successor : undefined
}

async function deleteByHash(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('tokens').where('token_hash', '=', tokenHash).where('kind', '!=', 'personal').execute()
}

/** Every token descending from one code: what a replayed code or refresh token revokes. */
async function deleteFamily(db: Db, family: string): Promise<void> {
  await db.deleteFrom('tokens').where('family', '=', family).execute()
}

/** The access tokens of a family: a refresh ends the one it replaces (every earlier one is gone already). */
async function deleteAccessOfFamily(db: Db, family: string): Promise<void> {
  await db.deleteFrom('tokens').where('family', '=', family).where('kind', '=', 'access').execute()
}

/** OAuth tokens past their expiry (personal tokens never expire). */
async function purgeExpired(db: Db, before: string): Promise<void> {
  await db.deleteFrom('tokens').where('kind', '!=', 'personal').where('expires_at', '<', before).execute()
}

async function deleteByGrant(db: Db, grantId: number): Promise<void> {
  await db.deleteFrom('tokens').where('grant_id', '=', grantId).execute()
}

export const tokensRepository = Object.freeze({
  insert,
  findByHash,
  findWithUser,
  findOwner,
  countByUser,
  listByUser,
  touch,
  revoke,
  insertOAuth,
  markRotated,
  keepSuccessor,
  takeSuccessor,
  deleteByHash,
  deleteFamily,
  deleteAccessOfFamily,
  deleteByGrant,
  purgeExpired,
})
