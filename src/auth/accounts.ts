import { AppError, invalid, invalidField } from '../kernel/errors.ts'
import { limits } from '../kernel/limits.ts'
import { isTimeZone } from '../kernel/time-zone.ts'
import { type Db, inTransaction } from '../store/db.ts'
import { profilesRepository } from '../store/profiles.ts'
import { type Ability, ABILITIES, type TokenRecord, tokensRepository } from '../store/tokens.ts'
import { type User, usersRepository } from '../store/users.ts'
import { generateToken, hashPassword, needsRehash, sha256, verifyPassword } from './secrets.ts'

export interface NewUser {
  email: string
  password: string
  name?: string
  timezone?: string
  languageCode?: string
}

export const isEmail = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 254
const MIN_PASSWORD = 8
// argon2 takes any length, but a megabyte "password" is a cheap way to burn our CPU.
const MAX_PASSWORD = 1024

function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD) return `Must be at least ${MIN_PASSWORD} characters.`
  if (password.length > MAX_PASSWORD) return `Must be at most ${MAX_PASSWORD} characters.`
  return undefined
}

/**
 * Every problem of a new account at once (e-mail, password, time zone), keyed by field; empty
 * when it may be created. Whether the e-mail is taken is checked only once it is well formed.
 */
async function newUserProblems(db: Db, u: NewUser): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {}
  const email = u.email.trim().toLowerCase()
  if (!isEmail(email)) errors.email = ['Must be an e-mail address.']
  else if (await usersRepository.findByEmail(db, email)) errors.email = [`An account for ${email} already exists.`]
  const weak = passwordProblem(u.password)
  if (weak) errors.password = [weak]
  const timezone = u.timezone ?? 'UTC'
  if (!isTimeZone(timezone)) errors.timezone = [`Unknown time zone "${timezone}"; use an IANA name like Europe/Berlin.`]
  return errors
}

async function createUser(db: Db, u: NewUser): Promise<User> {
  const errors = await newUserProblems(db, u)
  if (Object.keys(errors).length) throw invalid(errors)
  const email = u.email.trim().toLowerCase()
  return usersRepository.insert(db, {
    email,
    name: u.name?.trim() || email.split('@')[0],
    passwordHash: await hashPassword(u.password),
    timezone: u.timezone ?? 'UTC',
    languageCode: u.languageCode,
  })
}

/** What is wrong with a personal token's name, if anything (a form may show it beside its own checks). */
export const tokenNameProblem = (name: string | undefined): string | undefined =>
  (name?.trim().length ?? 0) > limits.tokenNameLength ? `Must be at most ${limits.tokenNameLength} characters.` : undefined

/** Issues a personal token; the raw token is returned once and only its hash is stored. */
async function createToken(db: Db, userId: number, options: { name?: string; abilities?: Ability[] } = {}): Promise<{ token: string; record: TokenRecord }> {
  const abilities = options.abilities ?? [...ABILITIES]
  const unknown = abilities.filter((a) => !ABILITIES.includes(a))
  if (unknown.length || abilities.length === 0) {
    throw invalidField('abilities', `Abilities are ${ABILITIES.join(', ')}.`)
  }
  const name = options.name?.trim() ?? ''
  // Every face issues through here (dashboard, command line, first start), so the limit holds for all.
  const nameProblem = tokenNameProblem(name)
  if (nameProblem) throw invalidField('name', nameProblem)
  return inTransaction(db, async (trx) => {
    // The user's row is locked (PostgreSQL) so two issues at once cannot pass the count and
    // name checks together.
    await profilesRepository.lockUser(trx, userId)
    if ((await tokensRepository.countByUser(trx, userId)) >= limits.tokensPerUser) {
      throw new AppError('limit_reached', {
        message: `A user may hold at most ${limits.tokensPerUser} tokens; revoke one in {{tokens.revoke}} first.`,
      })
    }
    // Names tell tokens apart in the list (and on their Revoke buttons): unique per account,
    // letter case aside. An unnamed token takes the first free "Personal token", "… 2", "… 3".
    const taken = new Set((await tokensRepository.listByUser(trx, userId)).map((t) => t.name.toLowerCase()))
    let chosen = name
    if (chosen && taken.has(chosen.toLowerCase())) {
      throw invalidField('name', `You already have a token named “${chosen}”. Choose another name, or revoke that token first.`)
    }
    for (let n = 1; !chosen; n++) {
      const candidate = n === 1 ? 'Personal token' : `Personal token ${n}`
      if (!taken.has(candidate.toLowerCase())) chosen = candidate
    }
    const token = generateToken()
    const record = await tokensRepository.insert(trx, {
      userId,
      name: chosen,
      tokenHash: sha256(token),
      abilities,
    })
    return { token, record }
  })
}

/**
 * What an account without a password (made by single sign-on, or that dropped its password)
 * keeps in place of a hash: no password verifies against it (verifyPassword knows no such
 * format), and sign-in treats it as an unknown e-mail.
 */
export const NO_PASSWORD = 'none'

const hasPassword = (user: User) => user.passwordHash !== NO_PASSWORD

/** Leaves the account without a password: it then signs in with a passkey only. */
const dropPassword = (db: Db, user: User): Promise<User> => usersRepository.update(db, user.id, { passwordHash: NO_PASSWORD })

// Verified against when the e-mail is unknown, so a wrong e-mail costs as long as a wrong password.
let decoy: Promise<string> | undefined

/**
 * The user whose e-mail and password these are, or undefined; which of the two was wrong is
 * not told. A hash in an older format is replaced by an argon2id one on success.
 */
async function signIn(db: Db, email: string, password: string): Promise<User | undefined> {
  const user = email.length <= 254 ? await usersRepository.findByEmail(db, email.trim()) : undefined
  if (!user || !hasPassword(user) || password.length > MAX_PASSWORD) {
    await verifyPassword(password.slice(0, MAX_PASSWORD), await (decoy ??= hashPassword('decoy password')))
    return undefined
  }
  if (!(await verifyPassword(password, user.passwordHash))) return undefined
  if (needsRehash(user.passwordHash)) return usersRepository.update(db, user.id, { passwordHash: await hashPassword(password) })
  return user
}

export interface AccountChanges {
  name: string
  email: string
  timezone: string
}

/** Name, e-mail and time zone, every problem reported at once. */
async function updateAccount(db: Db, user: User, c: AccountChanges): Promise<User> {
  const errors: Record<string, string[]> = {}
  const email = c.email.trim().toLowerCase()
  const name = c.name.trim()
  if (!name) errors.name = ['Enter a name.']
  else if (name.length > 100) errors.name = ['Must be at most 100 characters.']
  if (!isEmail(email)) errors.email = ['Must be an e-mail address.']
  else if (email !== user.email && (await usersRepository.findByEmail(db, email))) errors.email = ['This e-mail cannot be used.']
  if (!isTimeZone(c.timezone)) errors.timezone = ['Choose a time zone from the list.']
  if (Object.keys(errors).length) throw invalid(errors)
  return usersRepository.update(db, user.id, { name, email, timezone: c.timezone })
}

/** A new password, given the current one (the dashboard) or not (`cli users set-password`). */
async function setPassword(db: Db, user: User, password: string, current?: string): Promise<User> {
  if (current !== undefined && !(await verifyPassword(current, user.passwordHash))) {
    throw invalidField('currentPassword', 'This is not your current password.')
  }
  const weak = passwordProblem(password)
  if (weak) throw invalidField('newPassword', weak)
  return usersRepository.update(db, user.id, { passwordHash: await hashPassword(password) })
}

/**
 * Whether `password` is the user's current one: what a change that a stolen session must not be
 * able to make (e-mail, deletion) asks for.
 */
async function isCurrentPassword(user: User, password: string): Promise<boolean> {
  return password.length <= MAX_PASSWORD && verifyPassword(password, user.passwordHash)
}

export const accounts = Object.freeze({
  createUser,
  newUserProblems,
  createToken,
  signIn,
  updateAccount,
  setPassword,
  isCurrentPassword,
  hasPassword,
  dropPassword,
})
