import type { Selectable } from 'kysely'
import { type Db, nowIso, prepared } from './db.ts'
import type { User } from './users.ts'
import type { TokensTable } from './schema.ts'

export type Ability = 'profile:read' | 'profile:write'
export const ABILITIES: readonly Ability[] = ['profile:read', 'profile:write']

export interface TokenRecord {
  id: number
  userId: number
  name: string
  tokenHash: string
  abilities: Ability[]
  lastUsedAt: string | null
  createdAt: string
}

type Row = Selectable<TokensTable>

const toToken = (r: Row): TokenRecord => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  tokenHash: r.token_hash,
  abilities: r.abilities.split(',').filter(Boolean) as Ability[],
  lastUsedAt: r.last_used_at,
  createdAt: r.created_at,
})

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
    .select([
      'tokens.id',
      'tokens.user_id',
      'tokens.name',
      'tokens.token_hash',
      'tokens.abilities',
      'tokens.last_used_at',
      'tokens.created_at',
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
  return {
    token: toToken(row),
    user: {
      id: row.user_id,
      email: row.u_email,
      name: row.u_name,
      passwordHash: row.u_password_hash,
      timezone: row.u_timezone,
      languageCode: row.u_language_code,
      createdAt: row.u_created_at,
    },
  }
}

async function countByUser(db: Db, userId: number): Promise<number> {
  const { n } = await db
    .selectFrom('tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  return Number(n)
}

async function listByUser(db: Db, userId: number): Promise<TokenRecord[]> {
  const rows = await db.selectFrom('tokens').selectAll().where('user_id', '=', userId).orderBy('id').execute()
  return rows.map(toToken)
}

async function touch(db: Db, id: number, at = nowIso()): Promise<void> {
  await db.updateTable('tokens').set({ last_used_at: at }).where('id', '=', id).execute()
}

/** Revocation deletes the row: the very next request with that token finds nothing. */
async function revoke(db: Db, userId: number, id: number): Promise<boolean> {
  const res = await db.deleteFrom('tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
  return Number(res.numDeletedRows) > 0
}

export const tokensRepository = Object.freeze({ insert, findByHash, findWithUser, countByUser, listByUser, touch, revoke })
