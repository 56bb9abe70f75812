import { type Db, nowIso } from './db.ts'

export interface StoredAuthenticator {
  secretSealed: string
  lastStep: number | null
  confirmed: boolean
}

async function find(db: Db, userId: number): Promise<StoredAuthenticator | undefined> {
  const row = await db.selectFrom('totp_authenticators').select(['secret_sealed', 'last_step', 'confirmed_at']).where('user_id', '=', userId).executeTakeFirst()
  return row && { secretSealed: row.secret_sealed, lastStep: row.last_step === null ? null : Number(row.last_step), confirmed: row.confirmed_at !== null }
}

/** A new, unconfirmed authenticator, replacing any enrolment left half done (a confirmed one is kept). */
async function begin(db: Db, userId: number, secretSealed: string): Promise<void> {
  await db.deleteFrom('totp_authenticators').where('user_id', '=', userId).where('confirmed_at', 'is', null).execute()
  await db
    .insertInto('totp_authenticators')
    .values({ user_id: userId, secret_sealed: secretSealed, last_step: null, confirmed_at: null, created_at: nowIso() })
    .execute()
}

/**
 * Records `step` as used, only if it is later than the last one used: one conditional UPDATE, so
 * the same code sent twice at once passes once. Answers whether it was recorded.
 */
async function useStep(db: Db, userId: number, step: number, confirm = false): Promise<boolean> {
  let q = db
    .updateTable('totp_authenticators')
    .set(confirm ? { last_step: step, confirmed_at: nowIso() } : { last_step: step })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
  q = confirm ? q.where('confirmed_at', 'is', null) : q.where('confirmed_at', 'is not', null)
  const res = await q.executeTakeFirst()
  return Number(res.numUpdatedRows) === 1
}

async function remove(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute()
  await db.deleteFrom('totp_authenticators').where('user_id', '=', userId).execute()
}

/** Replaces every recovery code of the user with these digests. */
async function replaceRecoveryCodes(db: Db, userId: number, hashes: string[]): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute()
  const at = nowIso()
  await db
    .insertInto('recovery_codes')
    .values(hashes.map((h) => ({ user_id: userId, code_hash: h, used_at: null, created_at: at })))
    .execute()
}

/** Uses the recovery code with this digest once; false when unknown or used (one conditional UPDATE). */
async function useRecoveryCode(db: Db, userId: number, hash: string): Promise<boolean> {
  const res = await db
    .updateTable('recovery_codes')
    .set({ used_at: nowIso() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst()
  return Number(res.numUpdatedRows) === 1
}

async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export const twoFactorRepository = Object.freeze({ find, begin, useStep, remove, replaceRecoveryCodes, useRecoveryCode, recoveryCodesLeft })
