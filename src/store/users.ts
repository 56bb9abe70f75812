import type { Selectable } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import { countRows, type Db, nowIso, prepared } from './db.ts'
import type { UsersTable } from './schema.ts'

type Row = Selectable<UsersTable>

export type User = CamelCased<Row>

const toUser = (r: Row): User => camelRow(r)

async function insert(db: Db, u: { email: string; name: string; passwordHash: string; timezone?: string; languageCode?: string }): Promise<User> {
  const row = await db
    .insertInto('users')
    .values({
      email: u.email.toLowerCase(),
      name: u.name,
      password_hash: u.passwordHash,
      timezone: u.timezone ?? 'UTC',
      language_code: u.languageCode ?? 'en',
      created_at: nowIso(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toUser(row)
}

async function findById(db: Db, id: number): Promise<User | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
  return row && toUser(row)
}

async function findByEmail(db: Db, email: string): Promise<User | undefined> {
  const row = await db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst()
  return row && toUser(row)
}

async function count(db: Db): Promise<number> {
  return countRows(db.selectFrom('users'))
}

const usageQuery = prepared((db, userId: number) =>
  db.selectNoFrom((eb) => [
    eb.selectFrom('profiles').select(eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).as('profiles'),
    // Personal tokens only, as the limit counts them (accounts.createToken): OAuth access and refresh tokens are a grant's.
    eb.selectFrom('tokens').select(eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('kind', '=', 'personal').as('tokens'),
  ]),
)

/** How much of the counted limits a user holds (GET /me), in one round trip. */
async function usage(db: Db, userId: number): Promise<{ profiles: number; tokens: number }> {
  const [row] = await usageQuery(db, userId)
  return { profiles: Number(row.profiles), tokens: Number(row.tokens) }
}

async function update(db: Db, id: number, changes: Partial<Pick<User, 'email' | 'name' | 'timezone' | 'passwordHash'>>): Promise<User> {
  const set: Partial<Row> = {}
  if (changes.email !== undefined) set.email = changes.email.toLowerCase()
  if (changes.name !== undefined) set.name = changes.name
  if (changes.timezone !== undefined) set.timezone = changes.timezone
  if (changes.passwordHash !== undefined) set.password_hash = changes.passwordHash
  const row = await db.updateTable('users').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
  return toUser(row)
}

export const usersRepository = Object.freeze({ insert, update, findById, findByEmail, count, usage })
