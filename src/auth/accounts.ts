import { AppError, invalidField } from '../http/errors.ts'
import { limits } from '../limits.ts'
import { type Db, inTransaction } from '../store/db.ts'
import { type Ability, ABILITIES, type TokenRecord, tokensRepository } from '../store/tokens.ts'
import { type User, usersRepository } from '../store/users.ts'
import { generateToken, hashPassword, sha256 } from './secrets.ts'

export interface NewUser {
  email: string
  password: string
  name?: string
  timezone?: string
  languageCode?: string
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

async function createUser(db: Db, u: NewUser): Promise<User> {
  const email = u.email.trim().toLowerCase()
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw invalidField('email', 'Must be an e-mail address.')
  if (u.password.length < 8) throw invalidField('password', 'Must be at least 8 characters.')
  const timezone = u.timezone ?? 'UTC'
  if (!isTimeZone(timezone)) throw invalidField('timezone', `Unknown time zone "${timezone}"; use an IANA name like Europe/Berlin.`)
  if (await usersRepository.findByEmail(db, email)) throw invalidField('email', `An account for ${email} already exists.`)
  return usersRepository.insert(db, {
    email,
    name: u.name?.trim() || email.split('@')[0],
    passwordHash: await hashPassword(u.password),
    timezone,
    languageCode: u.languageCode,
  })
}

/** Issues a personal token; the raw token is returned once and only its hash is stored. */
async function createToken(
  db: Db,
  userId: number,
  options: { name?: string; abilities?: Ability[] } = {},
): Promise<{ token: string; record: TokenRecord }> {
  const abilities = options.abilities ?? [...ABILITIES]
  const unknown = abilities.filter((a) => !ABILITIES.includes(a))
  if (unknown.length || abilities.length === 0) {
    throw invalidField('abilities', `Abilities are ${ABILITIES.join(', ')}.`)
  }
  return inTransaction(db, async (trx) => {
    if ((await tokensRepository.countByUser(trx, userId)) >= limits.tokensPerUser) {
      throw new AppError('limit_reached', {
        message: `A user may hold at most ${limits.tokensPerUser} tokens; revoke one in the dashboard first.`,
      })
    }
    const token = generateToken()
    const record = await tokensRepository.insert(trx, {
      userId,
      name: options.name?.trim() || 'Personal token',
      tokenHash: sha256(token),
      abilities,
    })
    return { token, record }
  })
}

export const accounts = Object.freeze({ createUser, createToken })
