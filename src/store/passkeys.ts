import { type Db, nowIso } from './db.ts'

export interface StoredPasskey {
  id: number
  userId: number
  credentialId: string
  publicKey: string
  counter: number
  transports: string[]
  name: string
  createdAt: string
  lastUsedAt: string | null
}

const COLUMNS = ['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports', 'name', 'created_at', 'last_used_at'] as const

function toPasskey(r: {
  id: number
  user_id: number
  credential_id: string
  public_key: string
  counter: number | string
  transports: string
  name: string
  created_at: string
  last_used_at: string | null
}): StoredPasskey {
  return {
    id: r.id,
    userId: r.user_id,
    credentialId: r.credential_id,
    publicKey: r.public_key,
    counter: Number(r.counter),
    transports: JSON.parse(r.transports) as string[],
    name: r.name,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
  }
}

async function listFor(db: Db, userId: number): Promise<StoredPasskey[]> {
  return (await db.selectFrom('passkeys').select(COLUMNS).where('user_id', '=', userId).orderBy('id').execute()).map(toPasskey)
}

async function countFor(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

async function byCredentialId(db: Db, credentialId: string): Promise<StoredPasskey | undefined> {
  const row = await db.selectFrom('passkeys').select(COLUMNS).where('credential_id', '=', credentialId).executeTakeFirst()
  return row && toPasskey(row)
}

async function insert(db: Db, p: Pick<StoredPasskey, 'userId' | 'credentialId' | 'publicKey' | 'counter' | 'transports' | 'name'>): Promise<void> {
  await db
    .insertInto('passkeys')
    .values({
      user_id: p.userId,
      credential_id: p.credentialId,
      public_key: p.publicKey,
      counter: p.counter,
      transports: JSON.stringify(p.transports),
      name: p.name,
      created_at: nowIso(),
      last_used_at: null,
    })
    .execute()
}

/**
 * Records a use: the new counter, only if the stored one is still `counter` (one conditional
 * UPDATE, so the same assertion sent twice at once passes once). Answers whether it was recorded.
 */
async function recordUse(db: Db, id: number, counter: number, newCounter: number): Promise<boolean> {
  const res = await db
    .updateTable('passkeys')
    .set({ counter: newCounter, last_used_at: nowIso() })
    .where('id', '=', id)
    .where('counter', '=', counter)
    .executeTakeFirst()
  return Number(res.numUpdatedRows) === 1
}

async function rename(db: Db, userId: number, id: number, name: string): Promise<boolean> {
  const res = await db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
  return Number(res.numUpdatedRows) === 1
}

async function remove(db: Db, userId: number, id: number): Promise<boolean> {
  const res = await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
  return Number(res.numDeletedRows) === 1
}

export interface ChallengeBinding {
  sessionHash: string
  purpose: 'register' | 'sign-in' | 'second-step' | 'owner-confirmed'
  userId: number | null
}

/** Keeps a new challenge (and sweeps the expired ones, so the table stays small). */
async function keepChallenge(db: Db, challenge: string, binding: ChallengeBinding, expiresAt: string): Promise<void> {
  await db.deleteFrom('passkey_challenges').where('expires_at', '<', nowIso()).execute()
  await db
    .insertInto('passkey_challenges')
    .values({ challenge, session_hash: binding.sessionHash, purpose: binding.purpose, user_id: binding.userId, expires_at: expiresAt })
    .execute()
}

/** Whether a challenge's row is unexpired and was issued to this session, for this purpose (and user). */
const isLiveFor = (row: { expires_at: string; session_hash: string; purpose: string; user_id: number | null } | undefined, binding: ChallengeBinding) =>
  !!row && row.expires_at > nowIso() && row.session_hash === binding.sessionHash && row.purpose === binding.purpose && (row.user_id ?? null) === binding.userId

/**
 * Takes a challenge: deleted whatever it matches, so it is never taken twice; answers whether it
 * was unexpired and issued to this session, for this purpose (and user).
 */
async function takeChallenge(db: Db, challenge: string, binding: ChallengeBinding): Promise<boolean> {
  return isLiveFor(await db.deleteFrom('passkey_challenges').where('challenge', '=', challenge).returningAll().executeTakeFirst(), binding)
}

/** Whether a challenge is kept, unexpired, for this session, purpose and user; it stays kept. */
async function holdsChallenge(db: Db, challenge: string, binding: ChallengeBinding): Promise<boolean> {
  return isLiveFor(await db.selectFrom('passkey_challenges').selectAll().where('challenge', '=', challenge).executeTakeFirst(), binding)
}

export const passkeysRepository = Object.freeze({
  listFor,
  countFor,
  byCredentialId,
  insert,
  recordUse,
  rename,
  remove,
  keepChallenge,
  takeChallenge,
  holdsChallenge,
})
